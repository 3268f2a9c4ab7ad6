package kr.c4i.gateway.jms;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JmsPriorityTest {

    @Test
    void priorityFollowsUrgency() {
        assertThat(JmsPriority.of(Precedence.FLASH)).isEqualTo(9);
        assertThat(JmsPriority.of(Precedence.IMMEDIATE)).isEqualTo(7);
        assertThat(JmsPriority.of(Precedence.PRIORITY)).isEqualTo(5);
        assertThat(JmsPriority.of(Precedence.ROUTINE)).isEqualTo(4);
    }
}

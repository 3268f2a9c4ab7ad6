package kr.c4i.gateway.dds.transport;

import java.time.Duration;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TopicQosTest {

    @Test
    void transportPriorityFollowsUrgency() {
        assertThat(TopicQos.transportPriority(Precedence.FLASH)).isEqualTo(9);
        assertThat(TopicQos.transportPriority(Precedence.IMMEDIATE)).isEqualTo(7);
        assertThat(TopicQos.transportPriority(Precedence.PRIORITY)).isEqualTo(5);
        assertThat(TopicQos.transportPriority(Precedence.ROUTINE)).isEqualTo(4);
    }

    @Test
    void writerCarriesTheTypesDefaultPrecedence() {
        var type = KmtfCatalogue.loadDefault().types().stream()
                .filter(t -> t.defaultPrecedence() == Precedence.FLASH).findFirst().orElseThrow();
        assertThat(TopicQos.writer(type, Duration.ofSeconds(1)).transportPriority()).isEqualTo(9);
    }
}

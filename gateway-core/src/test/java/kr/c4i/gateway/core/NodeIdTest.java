package kr.c4i.gateway.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class NodeIdTest {

    @Test
    void acceptsNamesUsableInQueuesAndTopics() {
        assertThat(NodeId.of("node-a_1").value()).isEqualTo("node-a_1");
    }

    @Test
    void rejectsNamesThatWouldBreakQueueNames() {
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("A")).withMessageContaining("'A'");
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("a.b"));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of(""));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("#"));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("-a"));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("_a"));
        assertThatIllegalArgumentException().isThrownBy(() -> NodeId.of("a".repeat(64)));
        assertThat(NodeId.of("9" + "z".repeat(62)).value()).hasSize(63);
    }
}

package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MessageTypeTest {

    @Test
    void validTypeKeepsItsValues() {
        MessageType type = callFire(100, 8192);
        assertThat(type.id()).isEqualTo("CALLFIRE");
        assertThat(type.topicName()).isEqualTo("kmtf/fires/CALLFIRE");
        assertThat(type.defaultPrecedence()).isEqualTo(Precedence.FLASH);
    }

    @Test
    void historyOutOfRangeIsRejectedWithColumnName() {
        assertThatIllegalArgumentException().isThrownBy(() -> callFire(0, 8192))
            .withMessage("history: 0 is out of range 1..1000");
    }

    @Test
    void maxSizeOutOfRangeIsRejectedWithColumnName() {
        assertThatIllegalArgumentException().isThrownBy(() -> callFire(100, 10)).withMessageStartingWith("max_size:");
    }

    @Test
    void lowerCaseIdIsRejected() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new MessageType("callfire", "Call for fire", Category.FIRES, "kmtf/fires/CALLFIRE",
                    Reliability.RELIABLE, 1, Durability.VOLATILE, Precedence.FLASH, 8192))
            .withMessageStartingWith("id:");
    }

    @Test
    void topicWithEmptySegmentIsRejected() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new MessageType("CALLFIRE", "Call for fire", Category.FIRES, "kmtf//CALLFIRE",
                    Reliability.RELIABLE, 1, Durability.VOLATILE, Precedence.FLASH, 8192))
            .withMessageStartingWith("topic:");
    }

    @Test
    void missingValueIsRejected() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new MessageType("CALLFIRE", "Call for fire", null, "kmtf/fires/CALLFIRE",
                    Reliability.RELIABLE, 1, Durability.VOLATILE, Precedence.FLASH, 8192))
            .withMessage("category is required");
    }

    private static MessageType callFire(int history, int maxSize) {
        return new MessageType("CALLFIRE", "Call for fire", Category.FIRES, "kmtf/fires/CALLFIRE",
                Reliability.RELIABLE, history, Durability.TRANSIENT_LOCAL, Precedence.FLASH, maxSize);
    }
}

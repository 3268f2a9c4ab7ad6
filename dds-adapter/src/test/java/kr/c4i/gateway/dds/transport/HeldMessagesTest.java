package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

class HeldMessagesTest {

    @Test
    void handsOverByPrecedenceThenInTheOrderTaken() {
        HeldMessages held = new HeldMessages(100, 1 << 20);
        held.add(message("r1", "SITREP", Precedence.ROUTINE));
        held.add(message("r2", "SITREP", Precedence.ROUTINE));
        held.add(message("p1", "SITREP", Precedence.PRIORITY));
        held.add(message("f1", "SITREP", Precedence.FLASH));
        held.add(message("i1", "SITREP", Precedence.IMMEDIATE));
        held.add(message("f2", "SITREP", Precedence.FLASH));

        assertThat(ids(next(held, 3))).containsExactly("f1", "f2", "i1");
        assertThat(ids(next(held, 10))).containsExactly("p1", "r1", "r2");
        assertThat(held.isEmpty()).isTrue();
    }

    @Test
    void withinAPrecedenceEachTypeGetsAnEqualShareStartingAtAnotherTypeEachBatch() {
        HeldMessages held = new HeldMessages(100, 1 << 20);
        for (int i = 0; i < 10; i++) {
            held.add(message("a" + i, "SITREP", Precedence.ROUTINE));
        }
        for (int i = 0; i < 2; i++) {
            held.add(message("b" + i, "OPORD", Precedence.ROUTINE));
        }

        assertThat(ids(next(held, 4))).containsExactly("a0", "a1", "b0", "b1");
        // The other type's share went unused: the room is filled from the one that has more.
        assertThat(ids(next(held, 4))).containsExactly("a2", "a3", "a4", "a5");
        assertThat(held.size()).isEqualTo(4);
    }

    @Test
    void refusalsGoFirstAndCountAgainstTheBatch() {
        HeldMessages held = new HeldMessages(100, 1 << 20);
        held.add(message("f1", "SITREP", Precedence.FLASH));
        held.add(new InboundRefusal("alpha", "x", "SITREP", "topic", "invalid", "blank text", null));
        List<Envelope> batch = new ArrayList<>();
        List<InboundRefusal> refused = new ArrayList<>();

        held.next(1, batch, refused);

        assertThat(refused).extracting(InboundRefusal::messageId).containsExactly("x");
        assertThat(batch).isEmpty();
        assertThat(held.size()).isEqualTo(1);
    }

    @Test
    void roomIsBoundedByMessagesAndByBytesButOneMessageIsAlwaysLetIn() {
        HeldMessages byCount = new HeldMessages(2, 1 << 20);
        byCount.add(message("a", "SITREP", Precedence.ROUTINE));
        assertThat(byCount.room()).isEqualTo(1);
        byCount.add(message("b", "SITREP", Precedence.ROUTINE));
        assertThat(byCount.hasRoom()).isFalse();
        assertThat(byCount.room()).isZero();

        HeldMessages byBytes = new HeldMessages(100, 10);
        assertThat(byBytes.hasRoom()).isTrue();
        byBytes.add(new Envelope("big", NodeId.of("alpha"), "SITREP", Precedence.ROUTINE, "UNCLASSIFIED",
                Instant.EPOCH, new byte[64]));
        assertThat(byBytes.hasRoom()).isFalse();
        next(byBytes, 1);
        assertThat(byBytes.hasRoom()).isTrue();

        assertThatIllegalArgumentException().isThrownBy(() -> new HeldMessages(0, 10))
                .withMessageContaining("room for a message");
    }

    private static List<Envelope> next(HeldMessages held, int max) {
        List<Envelope> batch = new ArrayList<>();
        held.next(max, batch, new ArrayList<>());
        return batch;
    }

    private static List<String> ids(List<Envelope> batch) {
        return batch.stream().map(Envelope::messageId).toList();
    }

    private static Envelope message(String id, String type, Precedence precedence) {
        return new Envelope(id, NodeId.of("alpha"), type, precedence, "UNCLASSIFIED", Instant.EPOCH,
                ("MSGID/" + type + "/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }
}

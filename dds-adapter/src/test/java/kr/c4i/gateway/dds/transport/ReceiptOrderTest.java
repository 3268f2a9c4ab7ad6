package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

class ReceiptOrderTest {

    private final ReceiptOrder order = new ReceiptOrder();

    @Test
    void aMessageHandedOverAheadOfItsOriginAndTypeIsReceiptedAfterTheOnesThatArrivedBeforeIt() {
        Envelope r1 = message("r1", "alpha", "SITREP", Precedence.ROUTINE);
        Envelope r2 = message("r2", "alpha", "SITREP", Precedence.ROUTINE);
        Envelope flash = message("f", "alpha", "SITREP", Precedence.FLASH);
        List.of(r1, r2, flash).forEach(order::arrived);

        assertThat(order.handedOver(List.of(flash), List.of(flash))).isEmpty();
        assertThat(order.handedOver(List.of(r1), List.of(r1))).containsExactly(r1);
        assertThat(order.handedOver(List.of(r2), List.of(r2))).containsExactly(r2, flash);
        assertThat(order.size()).isZero();
    }

    @Test
    void otherOriginsAndTypesDoNotWaitAndRefusedMessagesAreNeverReceiptedNorHoldOthersBack() {
        Envelope routine = message("r", "alpha", "SITREP", Precedence.ROUTINE);
        Envelope otherType = message("o", "alpha", "OPORD", Precedence.FLASH);
        Envelope otherOrigin = message("b", "bravo", "SITREP", Precedence.FLASH);
        Envelope refusedFirst = message("x", "charlie", "SITREP", Precedence.ROUTINE);
        Envelope after = message("y", "charlie", "SITREP", Precedence.FLASH);
        List.of(routine, otherType, otherOrigin, refusedFirst, after).forEach(order::arrived);

        assertThat(order.handedOver(List.of(otherType, otherOrigin, after), List.of(otherType, otherOrigin, after)))
                .containsExactlyInAnyOrder(otherType, otherOrigin);
        // Refused (the store full, say): no receipt, so its origin sends it again; the one after it goes now.
        assertThat(order.handedOver(List.of(refusedFirst), List.of())).containsExactly(after);
        assertThat(order.size()).isEqualTo(1);
        assertThat(order.handedOver(List.of(routine), List.of(routine))).containsExactly(routine);
    }

    private static Envelope message(String id, String origin, String type, Precedence precedence) {
        return new Envelope(id, NodeId.of(origin), type, precedence, "UNCLASSIFIED", Instant.EPOCH,
                ("MSGID/" + type + "/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }
}

package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.A;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A peer that sends no receipt gets its frames again after the receipt timeout only once the link has delivered what
 * it held: while the link still holds frames it has not delivered (repairing, or in a cut it has not declared), a
 * copy sent again would wait behind the first. On a real store, as the engine runs; the peer never receipts.
 */
class ReceiptTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void framesGoAgainOnlyOnceTheLinkHasDeliveredWhatItHeld() throws Exception {
        try (S1Gateway s1 = new S1Gateway(CustodyLog.off())) {
            s1.receiptTimeout = TIMEOUT;
            s1.link.unacknowledgedBytes = 1_000;
            try (RelayEngine engine = s1.engine()) {
                Envelope message = new Envelope("m-1", A, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                        "MSGID/SITREP/m-1//".getBytes(StandardCharsets.UTF_8));
                assertThat(engine.ingest(List.of(message))).hasSize(1);
                engine.start();
                await().atMost(Duration.ofSeconds(30)).until(() -> s1.dataFrames().size() == 1);

                // Six timeouts with the link still delivering: nothing goes again.
                await().during(TIMEOUT.multipliedBy(6)).atMost(TIMEOUT.multipliedBy(8))
                        .until(() -> s1.dataFrames().size() == 1);

                s1.link.unacknowledgedBytes = 0;
                await().atMost(Duration.ofSeconds(30)).until(() -> s1.dataFrames().size() >= 2);
            }
        }
    }
}

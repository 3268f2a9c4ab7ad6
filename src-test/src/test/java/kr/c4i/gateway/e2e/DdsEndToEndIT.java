package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * The contract over DDS: a topic per KMTF type on real Cyclone DDS participants, receipts back to
 * the sender, unreceipted RELIABLE messages resent (also after the sender itself was killed).
 */
class DdsEndToEndIT extends EndToEndContract {

    @Override
    TransportKind transport() {
        return TransportKind.DDS;
    }

    @Test
    void bestEffortTypesAreNeitherTrackedNorResentNorDuplicated() throws Exception {
        String type = KmtfCatalogue.loadDefault().types().stream()
                .filter(t -> t.reliability() == Reliability.BEST_EFFORT).findFirst().orElseThrow().id();
        NodeProcess b = cluster.start("b").awaitUp(STARTUP);
        NodeProcess a = cluster.start("a").awaitUp(STARTUP);
        for (int i = 0; i < 200; i++) {
            cluster.insertOutbox("a", type, message(type, i));
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        // BEST_EFFORT may drop, but never silently: each message ends in b's inbox or in a drop counter (unmatched
        // on a; lost or rejected on b), so the wait ends when all 200 are accounted for, not after a guessed pause.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(cluster.count("b", "SELECT count(*) FROM inbox") + dropped(a) + dropped(b))
                        .as("messages in b's inbox plus samples counted dropped").isEqualTo(200.0));

        assertThat(cluster.count("b", "SELECT count(*) FROM inbox")).isPositive();
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox_delivery")).as("no ledger rows, no resends")
                .isZero();
        assertThat(cluster.strings("b", "SELECT message_id FROM inbox"))
                .isSubsetOf(cluster.strings("a", "SELECT message_id FROM outbox"));
        assertThat(b.get("/actuator/prometheus").body()).as("no copy delivered twice")
                .containsPattern("gateway_inbox_duplicates_total\\{[^}]*\\} 0\\.0");
    }

    /** {@code gateway.dds.samples.dropped}, summed over its reasons, as the node's Prometheus endpoint shows it. */
    private static double dropped(NodeProcess node) throws Exception {
        return counted(node, "gateway_dds_samples_dropped_total{");
    }
}

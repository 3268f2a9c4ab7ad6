package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * The contract over DDS: a topic per KMTF type on real Cyclone DDS participants, receipts back to
 * the sender, unreceipted RELIABLE messages resent (also after the sender itself was killed).
 */
class DdsEndToEndTest extends EndToEndContract {

    @Override
    String transport() {
        return "dds";
    }

    @Test
    void bestEffortTypesAreNeitherTrackedNorResentNorDuplicated() throws Exception {
        String type = KmtfCatalogue.loadDefault().types().stream()
                .filter(t -> t.reliability() == Reliability.BEST_EFFORT).findFirst().orElseThrow().id();
        NodeProcess b = cluster.start("b").awaitUp(STARTUP);
        cluster.start("a").awaitUp(STARTUP);
        for (int i = 0; i < 200; i++) {
            cluster.insertOutbox("a", type, message(type, i));
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        // Nothing to wait for but the wire: give stragglers a moment, then the inbox must hold each at most once.
        Thread.sleep(3000);

        long received = cluster.count("b", "SELECT count(*) FROM inbox");
        assertThat(received).isBetween(1L, 200L);
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox_delivery")).as("no ledger rows, no resends")
                .isZero();
        assertThat(cluster.strings("b", "SELECT message_id FROM inbox"))
                .isSubsetOf(cluster.strings("a", "SELECT message_id FROM outbox"));
        assertThat(b.get("/actuator/prometheus").body()).as("no copy delivered twice")
                .containsPattern("gateway_inbox_duplicates_total\\{[^}]*\\} 0\\.0");
    }
}

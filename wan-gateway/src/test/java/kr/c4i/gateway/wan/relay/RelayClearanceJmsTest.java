package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;

/**
 * Classification-aware delivery through the WAN gateway, over the real parts {@link JmsSites} runs: site s2 is
 * cleared CONFIDENTIAL, so nothing SECRET crosses the WAN to it; site s3 is cleared SECRET but its node c only
 * CONFIDENTIAL, so gateway 3 takes SECRET off the WAN and still delivers it to no node of its LAN.
 */
@Timeout(300)
@ExtendWith(OutputCaptureExtension.class)
class RelayClearanceJmsTest {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final SiteId S3 = SiteId.of("s3");
    static final NodeId A = NodeId.of("a");
    static final NodeId B = NodeId.of("b");
    static final NodeId C = NodeId.of("c");

    @TempDir
    Path dir;

    private static Envelope message(String id, String classification) {
        String text = classification + "\nMSGID/SITREP/1CORPS/" + id + "//\nNARR/ROUTE CLEAR//\n";
        return new Envelope(id, A, "SITREP", Precedence.PRIORITY, classification,
                Instant.now().truncatedTo(ChronoUnit.MICROS), text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void secretNeverCrossesToASiteClearedConfidentialNorReachesANodeClearedConfidentialAndTheRestDo()
            throws Exception {
        Clearances nodes = Clearances.of(Map.of("a", "TOP SECRET", "b", "CONFIDENTIAL", "c", "CONFIDENTIAL"),
                Classification.UNCLASSIFIED, "gateway.routing.clearances");
        Clearances sites = Clearances.of(Map.of("s1", "TOP SECRET", "s2", "CONFIDENTIAL", "s3", "SECRET"),
                Classification.UNCLASSIFIED, "gateway.routing.site-clearances");
        try (JmsSites relay = new JmsSites(dir, Map.of(S1, A, S2, B, S3, C),
                Map.of(B, List.of("SITREP"), C, List.of("SITREP")), 100_000_000L, Duration.ofSeconds(10), 0.05,
                nodes, sites)) {
            relay.send(List.of(message("s-1", "SECRET//REL TO USA, KOR"), message("u-1", "UNCLASSIFIED"),
                    message("c-1", "CONFIDENTIAL"), message("s-2", "SECRET")));
            relay.send(List.of(message("u-2", "UNCLASSIFIED")));

            await().atMost(Duration.ofSeconds(60)).until(() -> relay.site(S2).received() == 3
                    && relay.site(S3).received() == 3 && relay.stored() == 0);
            assertThat(relay.site(S2).inbox.keySet()).containsExactlyInAnyOrder("u-1", "c-1", "u-2");
            assertThat(relay.site(S3).inbox.keySet()).containsExactlyInAnyOrder("u-1", "c-1", "u-2");

            // Gateway 1 sent s2 no SECRET message: refused and counted there, never on the WAN. (Its JMS LAN side
            // takes a copy off each destination's queue, b's and c's, and checks each one it ingests: so a message
            // counts once or twice.)
            assertThat(relay.site(S1).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION, "s2"))
                    .isBetween(2.0, 4.0);
            assertThat(relay.site(S1).counted(MetricNames.WAN_DROPPED, MetricNames.TAG_REASON, "clearance"))
                    .isEqualTo(relay.site(S1).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION,
                            "s2"));
            assertThat(relay.site(S1).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION, "s3"))
                    .isZero();
            assertThat(relay.site(S2).counted(MetricNames.WAN_RELAYED, "direction", "wan-in")).isEqualTo(3);
            // Gateway 3 (site cleared SECRET) took them off the WAN but stored them for no node of its LAN.
            assertThat(relay.site(S3).counted(MetricNames.WAN_RELAYED, "direction", "wan-in")).isEqualTo(3);
            assertThat(relay.site(S3).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION, "c"))
                    .isEqualTo(2);
            assertThat(relay.site(S3).counted(MetricNames.WAN_DROPPED, MetricNames.TAG_REASON, "clearance"))
                    .isEqualTo(2);
            relay.assertDeliveredOnceOrResent();
        }
    }

    @Test
    void aStreamOfMessagesAboveASitesClearanceIsCountedWholeAndLoggedSparsely(CapturedOutput output)
            throws Exception {
        Clearances nodes = Clearances.of(Map.of("a", "SECRET", "b", "SECRET"), Classification.UNCLASSIFIED,
                "gateway.routing.clearances");
        Clearances sites = Clearances.of(Map.of("s1", "SECRET", "s2", "CONFIDENTIAL"), Classification.UNCLASSIFIED,
                "gateway.routing.site-clearances");
        try (JmsSites relay = new JmsSites(dir, Map.of(S1, A, S2, B), Map.of(B, List.of("SITREP")), 100_000_000L,
                Duration.ofSeconds(10), 0.05, nodes, sites)) {
            List<Envelope> secret = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                secret.add(message("s-" + i, "SECRET"));
            }
            relay.send(secret);
            relay.send(List.of(message("u-1", "UNCLASSIFIED")));

            await().atMost(Duration.ofSeconds(60)).until(() -> relay.site(S2).received() == 1
                    && relay.site(S1).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION, "s2")
                            >= 40);
            double refused = relay.site(S1).counted(MetricNames.CLEARANCE_REFUSED, MetricNames.TAG_DESTINATION,
                    "s2");
            // A line at the 1st, 2nd, 4th, ... refusal: at most 7 for up to 127 of them, not one per message.
            long lines = output.getAll().lines().filter(l -> l.contains("for want of clearance)")).count();
            assertThat(lines).isBetween(1L, (long) Math.floor(Math.log(refused) / Math.log(2)) + 1);
            assertThat(relay.site(S2).inbox.keySet()).containsExactly("u-1");
        }
    }
}

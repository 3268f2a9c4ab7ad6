package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameCompression;

/**
 * {@code gateway.wan.payload.bytes} beside {@code gateway.wan.bytes}: the bytes of the messages the DATA frames sent
 * carried before compression, and those frames' bytes after, counted by the real engine between two sites (real JMS
 * nodes, gateways with their own PostgreSQL databases and brokers; see {@link JmsSites}).
 */
@Timeout(300)
class PayloadBytesJmsTest {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");
    static final Duration WAIT = Duration.ofSeconds(60);
    static final int MESSAGES = 300;
    static final int BODY_BYTES = 200;
    /** A DATA frame's header: version, kind, dictionary id, epoch (8), seq (a varint of 1 to 10), CRC-32C (4). */
    static final int LEAST_HEADER = 3 + 8 + 1 + 4;
    static final int MOST_HEADER = 3 + 8 + 10 + 4;

    @TempDir
    Path dir;

    @Test
    void compressedFramesCarryMoreBytesOfMessagesThanTheyTake() throws Exception {
        Counted s1 = relay(FrameCodec.standard());

        // The filler text repeats: Deflate with the KMTF dictionary takes it to a fraction.
        assertThat(s1.payload).as("payload bytes").isGreaterThan(2 * s1.frameBytes);
        assertThat(s1.frameBytes).as("DATA frame bytes").isPositive();
    }

    /** As {@code gateway.wan.compress-frames=false} makes the codec (WanGatewayConfiguration.frameCodec). */
    @Test
    void uncompressedFramesAreTheirMessagesAndAHeaderEach() throws Exception {
        Counted s1 = relay(new FrameCodec(FrameCompression.NONE));

        assertThat(s1.frameBytes - s1.payload).as("DATA frame bytes over payload bytes, in %s frames", s1.frames)
                .isBetween((double) s1.frames * LEAST_HEADER, (double) s1.frames * MOST_HEADER);
    }

    /** What gateway 1 counted once every message from a crossed to c and was receipted. */
    private Counted relay(FrameCodec codec) throws Exception {
        try (JmsSites sites = new JmsSites(dir, Map.of(S1, A, S2, C), Map.of(C, List.of("*")), 1_000_000L,
                Duration.ofSeconds(10), 0.05, Clearances.unrestricted(), Clearances.unrestricted(), codec)) {
            List<Envelope> messages = RelayEngineJmsTest.messages(A, MESSAGES, Precedence.ROUTINE, BODY_BYTES);
            sites.send(messages);

            await().atMost(WAIT).until(() -> sites.site(S2).received() == MESSAGES);
            await().atMost(WAIT).until(() -> sites.stored() == 0);
            JmsSites.Site s1 = sites.site(S1);
            JmsSites.Site s2 = sites.site(S2);
            Counted counted = new Counted(
                    s1.counted(MetricNames.WAN_PAYLOAD_BYTES, "direction", "sent"),
                    s1.counted(MetricNames.WAN_BYTES, "direction", "sent", "kind", "data"),
                    (long) s1.counted(MetricNames.WAN_FRAMES, "direction", "sent", "kind", "data"));
            // The envelopes hold the bodies and their headers; every message went at least once.
            assertThat(counted.payload).as("payload bytes").isGreaterThanOrEqualTo((double) MESSAGES * BODY_BYTES);
            assertThat(counted.frames).as("DATA frames").isPositive();
            // Gateway 2 sent receipts only: their bytes are counted as such, and no payload.
            assertThat(s2.counted(MetricNames.WAN_BYTES, "direction", "sent", "kind", "receipt")).isPositive();
            assertThat(s2.counted(MetricNames.WAN_BYTES, "direction", "sent", "kind", "data")).isZero();
            assertThat(s2.counted(MetricNames.WAN_PAYLOAD_BYTES, "direction", "sent")).isZero();
            return counted;
        }
    }

    private record Counted(double payload, double frameBytes, long frames) {
    }
}

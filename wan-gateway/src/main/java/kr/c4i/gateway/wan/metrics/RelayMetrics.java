package kr.c4i.gateway.wan.metrics;

import static kr.c4i.gateway.core.metrics.MetricNames.TAG_DIRECTION;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_KIND;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_PRECEDENCE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_REASON;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_SITE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_TYPE;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The relay engine's counters and timers. Meters are looked up once per tag combination and kept, since the engine
 * counts every message at tens of thousands a second.
 */
public final class RelayMetrics {

    /** Which way a message moved, the {@code direction} tag of {@link MetricNames#WAN_RELAYED}. */
    public enum Direction {
        LAN_IN("lan-in"), WAN_OUT("wan-out"), WAN_IN("wan-in"), LAN_OUT("lan-out");

        private final String label;

        Direction(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private record RelayedKey(SiteId site, Direction direction, Precedence precedence, String type) {
    }

    private record DroppedKey(String reason, Precedence precedence, String type) {
    }

    private record QuarantinedKey(String reason, Precedence precedence) {
    }

    private record FrameKey(SiteId site, boolean sent, boolean data) {
    }

    private final MeterRegistry registry;
    private final Map<RelayedKey, Counter> relayed = new ConcurrentHashMap<>();
    private final Map<DroppedKey, Counter> dropped = new ConcurrentHashMap<>();
    private final Map<QuarantinedKey, Counter> quarantined = new ConcurrentHashMap<>();
    private final Map<FrameKey, Counter> frames = new ConcurrentHashMap<>();
    private final Map<FrameKey, Counter> bytes = new ConcurrentHashMap<>();
    private final Map<SiteId, Counter> payloadSent = new ConcurrentHashMap<>();
    private final Map<SiteId, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<SiteId, Counter> resent = new ConcurrentHashMap<>();
    private final Map<Precedence, Timer> latency = new ConcurrentHashMap<>();
    private final Counter forwardedSteps;
    private final Counter receivedSteps;

    public RelayMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.forwardedSteps = custodySteps(registry, "forwarded");
        this.receivedSteps = custodySteps(registry, "received");
    }

    private static Counter custodySteps(MeterRegistry registry, String way) {
        return Counter.builder(MetricNames.WAN_CUSTODY_STEPS)
                .description("Custody steps with other sites' messages forwarded there, or kept from them")
                .tag("way", way).register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void relayed(SiteId site, Direction direction, Envelope envelope) {
        relayed(site, direction, envelope.precedence(), envelope.kmtfType());
    }

    public void relayed(SiteId site, Direction direction, Precedence precedence, String type) {
        relayed.computeIfAbsent(new RelayedKey(site, direction, precedence, type),
                k -> Counter.builder(MetricNames.WAN_RELAYED).description("Messages the WAN gateway moved")
                        .tag(TAG_SITE, k.site().value()).tag(TAG_DIRECTION, k.direction().label())
                        .tag(TAG_PRECEDENCE, k.precedence().label()).tag(TAG_TYPE, k.type()).register(registry))
                .increment();
    }

    public void dropped(String reason, Envelope envelope) {
        dropped(reason, envelope.precedence(), envelope.kmtfType());
    }

    public void dropped(String reason, Precedence precedence, String type) {
        dropped.computeIfAbsent(new DroppedKey(reason, precedence, type),
                k -> Counter.builder(MetricNames.WAN_DROPPED).description("Messages the WAN gateway dropped on purpose")
                        .tag(TAG_REASON, k.reason()).tag(TAG_PRECEDENCE, k.precedence().label())
                        .tag(TAG_TYPE, k.type()).register(registry))
                .increment();
    }

    /** A message was not relayed to {@code destination} (a site or a node of this site) it is not cleared for. */
    public void clearanceRefused(String destination) {
        Counter.builder(MetricNames.CLEARANCE_REFUSED)
                .description("Messages not sent to a destination not cleared for their classification")
                .tag(MetricNames.TAG_DESTINATION, destination).register(registry).increment();
    }

    /**
     * A message was kept in the relay quarantine instead of being relayed. Not tagged by type: the types it counts
     * are those the catalogue does not define, so any text a sender writes.
     */
    public void quarantined(String reason, Envelope envelope) {
        quarantined.computeIfAbsent(new QuarantinedKey(reason, envelope.precedence()),
                k -> Counter.builder(MetricNames.WAN_QUARANTINED)
                        .description("Messages the WAN gateway kept in its quarantine instead of relaying them")
                        .tag(TAG_REASON, k.reason()).tag(TAG_PRECEDENCE, k.precedence().label()).register(registry))
                .increment();
    }

    /** A frame went to or came from a peer: its bytes as handed to the link or read from it (unsealed). */
    public void frame(SiteId site, boolean sent, boolean data, int frameBytes) {
        FrameKey key = new FrameKey(site, sent, data);
        frames.computeIfAbsent(key, k -> Counter.builder(MetricNames.WAN_FRAMES).description("WAN frames")
                .tag(TAG_SITE, k.site().value()).tag(TAG_DIRECTION, k.sent() ? "sent" : "received")
                .tag(TAG_KIND, k.data() ? "data" : "receipt").register(registry)).increment();
        bytes.computeIfAbsent(key, k -> Counter.builder(MetricNames.WAN_BYTES)
                .description("Bytes of WAN frames, as handed to the link or read from it (unsealed)").baseUnit("bytes")
                .tag(TAG_SITE, k.site().value()).tag(TAG_DIRECTION, k.sent() ? "sent" : "received")
                .tag(TAG_KIND, k.data() ? "data" : "receipt").register(registry)).increment(frameBytes);
    }

    /**
     * A DATA frame went to a peer (counted by {@link #frame} too) carrying this many bytes of encoded envelopes
     * before compression: the block its envelopes make, each message's header fields and body.
     */
    public void payloadSent(SiteId site, int blockBytes) {
        payloadSent.computeIfAbsent(site, s -> Counter.builder(MetricNames.WAN_PAYLOAD_BYTES)
                .description("Bytes of the encoded envelopes the DATA frames sent carried, before compression; "
                        + "gateway.wan.bytes of sent DATA frames over this is the link's compression ratio")
                .baseUnit("bytes").tag(TAG_SITE, s.value()).tag(TAG_DIRECTION, "sent").register(registry))
                .increment(blockBytes);
    }

    public void frameRejected(SiteId site) {
        rejected.computeIfAbsent(site, s -> Counter.builder(MetricNames.WAN_FRAMES_REJECTED)
                .description("WAN frames that could not be read").tag(TAG_SITE, s.value()).register(registry))
                .increment();
    }

    public void framesResent(SiteId site, int count) {
        resent.computeIfAbsent(site, s -> Counter.builder(MetricNames.WAN_FRAMES_RESENT)
                .description("DATA frames given up whose messages go again").tag(TAG_SITE, s.value())
                .register(registry)).increment(count);
    }

    /** Custody steps stored to forward to other sites ({@code forwarded}) or kept from them ({@code received}). */
    public void custodySteps(boolean forwarded, int count) {
        if (count > 0) {
            (forwarded ? forwardedSteps : receivedSteps).increment(count);
        }
    }

    /** A message passed custody to this site's nodes this long after its origin created it. */
    public void delivered(Precedence precedence, Duration sinceCreated) {
        latency.computeIfAbsent(precedence, p -> Timer.builder(MetricNames.WAN_DELIVERY_LATENCY)
                .description("From creation at the origin to custody at this site's nodes")
                .tag(TAG_PRECEDENCE, p.label()).publishPercentiles(0.5, 0.99).publishPercentileHistogram()
                .register(registry)).record(sinceCreated.isNegative() ? Duration.ZERO : sinceCreated);
    }
}

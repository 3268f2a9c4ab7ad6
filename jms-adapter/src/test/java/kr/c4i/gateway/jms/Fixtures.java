package kr.c4i.gateway.jms;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.kmtf.catalogue.Category;
import kr.c4i.gateway.kmtf.catalogue.Durability;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/** Envelopes and outbound messages for tests. */
final class Fixtures {

    static final MessageType SITREP = new MessageType("SITREP", "Situation report", Category.OPERATIONS,
            "kmtf/operations/SITREP", Reliability.RELIABLE, 10, Durability.TRANSIENT_LOCAL, Precedence.PRIORITY, 65536);

    private Fixtures() {
    }

    static Envelope envelope(String messageId, String origin) {
        byte[] body = ("EXER/ULCHI FREEDOM//\nMSGID/SITREP/1군단/" + messageId + "//\nRMKS/적 기갑 대대 이동 중//")
                .getBytes(StandardCharsets.UTF_8);
        // The transport carries createdAt in microseconds, the precision of the interface database.
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return new Envelope(messageId, NodeId.of(origin), SITREP.id(), Precedence.FLASH, "SECRET", createdAt, body);
    }

    /**
     * The envelope with a trace of {@code hops} hops, whole milliseconds after its creation as the trace's text
     * keeps them: the origin's "sent", then sites relaying (the last of 17 or more leaves hops out).
     */
    static Envelope traced(Envelope envelope, int hops) {
        HopTrace trace = HopTrace.EMPTY;
        for (int i = 0; i < hops; i++) {
            Instant at = envelope.createdAt().plusMillis(3 + 17L * i * i);
            trace = trace.with((i == 0) ? Hop.node(envelope.origin(), Action.SENT, at)
                    : Hop.site(SiteId.of("s" + i), Action.RELAYED, at));
        }
        return envelope.withTrace(trace);
    }

    /** The envelope with a sampled trace context whose parent span is {@code span}. */
    static Envelope inTrace(Envelope envelope, long span) {
        return envelope.withTraceParent(TraceParent.of("4bf92f3577b34da6a3ce929d0e0e4736", "%016x".formatted(span), 1));
    }

    static Outbound outbound(Envelope envelope, String... destinations) {
        return new Outbound(envelope, SITREP, Arrays.stream(destinations).map(NodeId::of).toList());
    }

    static List<Outbound> batch(String origin, String prefix, int from, int count, String... destinations) {
        return IntStream.range(from, from + count)
                .mapToObj((i) -> outbound(envelope(prefix + "-" + i, origin), destinations))
                .toList();
    }
}

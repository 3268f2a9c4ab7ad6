package kr.c4i.gateway.tracing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportException;

/**
 * Spans per the OpenTelemetry messaging semantic conventions. Each is the root of a trace of its own, linked to the
 * message's creation context, as the conventions have it for messages that travel in batches and hops: so every
 * message's spans are sampled alike, whatever the creating application decided for its own trace.
 */
final class OpenTelemetryMessageTracing implements MessageTracing {

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final Tracer tracer;

    OpenTelemetryMessageTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public void send(String system, List<Outbound> batch, Sender sender) throws TransportException {
        List<Span> spans = new ArrayList<>(batch.size());
        List<Outbound> leaving = new ArrayList<>(batch.size());
        for (Outbound outbound : batch) {
            Envelope envelope = outbound.envelope();
            SpanBuilder builder = span("send", SpanKind.PRODUCER, system, envelope);
            if (batch.size() > 1) {
                builder.setAttribute(BATCH_COUNT, (long) batch.size());
            }
            Span span = builder.startSpan();
            spans.add(span);
            // Invalid: a no-op tracer (OpenTelemetry switched off on its own), whose spans have no ids to carry.
            leaving.add(envelope.traceParent() == null && span.getSpanContext().isValid()
                    ? new Outbound(envelope.withTraceParent(traceParent(span.getSpanContext())), outbound.type(),
                            outbound.destinations())
                    : outbound);
        }
        try {
            sender.send(leaving);
        }
        catch (TransportException | RuntimeException ex) {
            // A busy transport sent what it took before it was busy: those sends succeeded.
            Set<String> taken = ex instanceof TransportBusyException busy ? Set.copyOf(busy.taken()) : Set.of();
            for (int i = 0; i < spans.size(); i++) {
                Span span = spans.get(i);
                if (!taken.contains(batch.get(i).envelope().messageId())) {
                    span.setStatus(StatusCode.ERROR, ex.getMessage() == null ? "" : ex.getMessage());
                    span.setAttribute(ERROR_TYPE, ex.getClass().getName());
                }
                span.end();
            }
            throw ex;
        }
        spans.forEach(Span::end);
    }

    @Override
    public Receiving receiving(String system) {
        Instant started = Instant.now();
        Set<String> stored = new HashSet<>();
        return message -> {
            if (stored.add(message.messageId())) {
                span("process", SpanKind.CONSUMER, system, message).setStartTimestamp(started).startSpan().end();
            }
        };
    }

    /** A span of this operation on one message, linked to its creation context if it has one. */
    private SpanBuilder span(String operation, SpanKind kind, String system, Envelope message) {
        SpanBuilder builder = tracer.spanBuilder(operation + " " + message.kmtfType())
                .setNoParent()
                .setSpanKind(kind)
                .setAttribute(SYSTEM, system)
                .setAttribute(OPERATION_TYPE, operation)
                .setAttribute(OPERATION_NAME, operation)
                .setAttribute(DESTINATION, message.kmtfType())
                .setAttribute(MESSAGE_ID, message.messageId());
        SpanContext creation = spanContext(message.traceParent());
        if (creation != null) {
            builder.addLink(creation);
        }
        return builder;
    }

    private static @Nullable SpanContext spanContext(@Nullable TraceParent traceParent) {
        if (traceParent == null) {
            return null;
        }
        return SpanContext.createFromRemoteParent(traceParent.traceId(), traceParent.parentId(),
                TraceFlags.fromByte((byte) traceParent.flags()), TraceState.getDefault());
    }

    private static TraceParent traceParent(SpanContext span) {
        return TraceParent.of(span.getTraceId(), span.getSpanId(), span.getTraceFlags().asByte() & 0xff);
    }
}

package kr.c4i.gateway.bridge.metrics;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.TransportKind;

/** The bridge's meters, registered once; names come from {@link MetricNames}. */
public final class BridgeMetrics {

    private final MeterRegistry registry;
    private final TransportKind transport;
    private final Counter polled;
    private final Counter published;
    private final Counter sendFailures;
    private final Counter delivered;
    private final Counter inserted;
    private final Counter duplicates;
    private final Timer latency;
    private final Counter resent;
    private final Counter invalidTraceParents;
    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong unreceipted = new AtomicLong();

    public BridgeMetrics(MeterRegistry registry, TransportKind transport) {
        this.registry = registry;
        this.transport = transport;
        polled = Counter.builder(MetricNames.OUTBOX_POLLED).description("Outbox rows claimed").register(registry);
        published = Counter.builder(MetricNames.OUTBOX_PUBLISHED).description("Outbox rows sent and marked sent")
                .tag(MetricNames.TAG_TRANSPORT, transport.label()).register(registry);
        sendFailures = Counter.builder(MetricNames.TRANSPORT_SEND_FAILURES)
                .description("Batches the transport could not take; rows kept and retried")
                .tag(MetricNames.TAG_TRANSPORT, transport.label()).register(registry);
        delivered = Counter.builder(MetricNames.INBOX_DELIVERED).description("Messages delivered by the transport")
                .tag(MetricNames.TAG_TRANSPORT, transport.label()).register(registry);
        inserted = Counter.builder(MetricNames.INBOX_INSERTED).description("Messages newly written to the inbox")
                .register(registry);
        duplicates = Counter.builder(MetricNames.INBOX_DUPLICATES)
                .description("Redelivered messages already in the inbox").register(registry);
        latency = Timer.builder(MetricNames.DELIVERY_LATENCY)
                .description("Outbox insert at the origin to inbox insert here")
                .tag(MetricNames.TAG_TRANSPORT, transport.label())
                // For in-process snapshots (the demo's p99); Prometheus gets only the histogram's buckets.
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        Gauge.builder(MetricNames.OUTBOX_BACKLOG, backlog, AtomicLong::get).description("Unsent outbox rows")
                .register(registry);
        resent = Counter.builder(MetricNames.OUTBOX_RESENT).description("Messages sent again for want of a receipt")
                .tag(MetricNames.TAG_TRANSPORT, transport.label()).register(registry);
        invalidTraceParents = Counter.builder(MetricNames.OUTBOX_TRACEPARENT_INVALID)
                .description("Outbox rows whose traceparent is malformed, sent without a creation context")
                .register(registry);
        Gauge.builder(MetricNames.OUTBOX_UNRECEIPTED, unreceipted, AtomicLong::get)
                .description("RELIABLE messages some destination has not receipted yet").register(registry);
    }

    public void polled(int rows) {
        polled.increment(rows);
    }

    public void published(int rows) {
        published.increment(rows);
    }

    public void quarantined(String reasonKind) {
        Counter.builder(MetricNames.OUTBOX_QUARANTINED).description("Outbox rows moved to quarantine")
                .tag(MetricNames.TAG_REASON, reasonKind).register(registry).increment();
    }

    public void inboundRejected(String reasonKind) {
        Counter.builder(MetricNames.INBOUND_REJECTED).description("Received messages refused into inbound quarantine")
                .tag(MetricNames.TAG_REASON, reasonKind).tag(MetricNames.TAG_TRANSPORT, transport.label())
                .register(registry).increment();
    }

    /** A message not sent to {@code destination}, whose clearance its classification exceeds. */
    public void clearanceRefused(String destination) {
        Counter.builder(MetricNames.CLEARANCE_REFUSED).description("Messages not sent to a destination not cleared "
                + "for their classification").tag(MetricNames.TAG_DESTINATION, destination)
                .tag(MetricNames.TAG_TRANSPORT, transport.label()).register(registry).increment();
    }

    /** An outbox row's traceparent that is not one: its message goes without a creation context. */
    public void invalidTraceParent() {
        invalidTraceParents.increment();
    }

    public void sendFailed() {
        sendFailures.increment();
    }

    public void delivered(int messages) {
        delivered.increment(messages);
    }

    public void inserted(int rows, int duplicateRows) {
        inserted.increment(rows);
        duplicates.increment(duplicateRows);
    }

    public void latency(Duration duration) {
        latency.record(duration.isNegative() ? Duration.ZERO : duration);
    }

    public void backlog(long rows) {
        backlog.set(rows);
    }

    public void resent(int messages) {
        resent.increment(messages);
    }

    public void unreceipted(long messages) {
        unreceipted.set(messages);
    }

    public TransportKind transport() {
        return transport;
    }
}

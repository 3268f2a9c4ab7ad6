package kr.c4i.gateway.bridge.transport;

import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportStats;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Publishes the DDS transport's own counters: samples written, received, lost and rejected (from
 * Cyclone's sample-lost and sample-rejected statuses), BEST_EFFORT samples dropped by reason, attempts
 * DDS Security refused by reason, participants recreated after failed handshakes, receipts, and matched readers per
 * topic.
 * One stats snapshot, at most a second old, serves every meter of a scrape: reading the statuses
 * of 270 writers once per meter would cost more than the scrape is worth.
 */
final class DdsTransportMetrics {

    private static final Duration SNAPSHOT_AGE = Duration.ofSeconds(1);

    private final DdsTransport transport;
    private DdsTransportStats snapshot;
    private long snapshotTaken;

    DdsTransportMetrics(DdsTransport transport, KmtfCatalogue catalogue, MeterRegistry registry) {
        this.transport = transport;
        counter(registry, MetricNames.DDS_SAMPLES_WRITTEN, "Samples written", DdsTransportStats::samplesWritten);
        counter(registry, MetricNames.DDS_SAMPLES_RECEIVED, "Samples received", DdsTransportStats::samplesReceived);
        counter(registry, MetricNames.DDS_SAMPLES_LOST, "Samples DDS reported lost", DdsTransportStats::samplesLost);
        counter(registry, MetricNames.DDS_SAMPLES_REJECTED, "Samples DDS rejected", DdsTransportStats::samplesRejected);
        counter(registry, MetricNames.DDS_SAMPLES_INVALID, "Received samples that were not valid envelopes",
                DdsTransportStats::samplesInvalid);
        for (String reason : List.of(DdsTransportStats.DROPPED_UNMATCHED, DdsTransportStats.DROPPED_LOST,
                DdsTransportStats.DROPPED_REJECTED)) {
            FunctionCounter.builder(MetricNames.DDS_SAMPLES_DROPPED, this,
                    m -> m.stats().dropped().getOrDefault(reason, 0L)).tag(MetricNames.TAG_REASON, reason)
                    .description("BEST_EFFORT samples dropped").register(registry);
        }
        for (String reason : List.of(DdsTransportStats.REFUSED_FORGED_ORIGIN,
                DdsTransportStats.REFUSED_FORGED_RECEIPT, DdsTransportStats.REFUSED_UNAUTHENTICATED,
                DdsTransportStats.REFUSED_AUTHENTICATION_FAILED, DdsTransportStats.REFUSED_NOT_PERMITTED)) {
            FunctionCounter.builder(MetricNames.DDS_SECURITY_REFUSED, this,
                    m -> m.stats().refused().getOrDefault(reason, 0L)).tag(MetricNames.TAG_REASON, reason)
                    .description("Attempts DDS Security refused: samples claiming an origin or receiver their "
                            + "writer's permissions do not allow, and remote participants kept out of the domain")
                    .register(registry);
        }
        counter(registry, MetricNames.DDS_PARTICIPANT_RECREATED, "Participant recreated after a DDS Security "
                + "handshake that Cyclone does not retry had failed", DdsTransportStats::participantsRecreated);
        counter(registry, MetricNames.DDS_RECEIPTS_SENT, "Receipts sent", DdsTransportStats::receiptsSent);
        counter(registry, MetricNames.DDS_RECEIPTS_RECEIVED, "Receipts received", DdsTransportStats::receiptsReceived);
        for (MessageType type : catalogue.types()) {
            Gauge.builder(MetricNames.DDS_TOPIC_READERS_MATCHED, this,
                    m -> m.stats().matchedReaders().getOrDefault(type.topicName(), 0))
                    .tag(MetricNames.TAG_TOPIC, type.topicName()).description("Remote readers matched on the topic")
                    .register(registry);
        }
    }

    private synchronized DdsTransportStats stats() {
        long now = System.nanoTime();
        if (snapshot == null || now - snapshotTaken > SNAPSHOT_AGE.toNanos()) {
            snapshot = transport.stats();
            snapshotTaken = now;
        }
        return snapshot;
    }

    private void counter(MeterRegistry registry, String name, String description,
            ToDoubleFunction<DdsTransportStats> value) {
        FunctionCounter.builder(name, this, m -> value.applyAsDouble(m.stats())).description(description)
                .register(registry);
    }
}

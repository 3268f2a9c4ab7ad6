package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.WaitSet;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfReceiptSample;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * The transport's one receive thread: a wait set with one read condition per reader serves every subscribed type
 * and the receipt reader. Messages are taken (lent, copied, returned), turned into envelopes and handed to the
 * inbound handler in batches; once the handler returns, a receipt per origin is published in that origin's
 * partition. A batch the handler refuses is handed to it again after a growing delay, so nothing taken is
 * dropped while the transport is open; if it closes first, the origin resends what stays unreceipted.
 */
final class ReceiveLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ReceiveLoop.class);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration MAX_REDELIVERY_DELAY = Duration.ofSeconds(10);

    private final NodeId node;
    private final DomainParticipant participant;
    private final WaitSet waitSet;
    private final Topic<KmtfReceiptSample> receiptTopic;
    private final DdsTransportSettings settings;
    private final Counters counters;
    private final Map<DataReader<?>, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<NodeId, DataWriter<KmtfReceiptSample>> receiptWriters = new ConcurrentHashMap<>();
    private volatile DataReader<KmtfReceiptSample> receiptReader;
    private volatile ReceiptHandler receiptHandler;
    private volatile InboundHandler inboundHandler;
    private volatile boolean running = true;

    ReceiveLoop(NodeId node, DomainParticipant participant, Topic<KmtfReceiptSample> receiptTopic,
            DdsTransportSettings settings, Counters counters) {
        this.node = node;
        this.participant = participant;
        this.receiptTopic = receiptTopic;
        this.settings = settings;
        this.counters = counters;
        this.waitSet = participant.createWaitSet();
    }

    /** Counters shared with the transport. */
    static final class Counters {
        final LongAdder received = new LongAdder();
        final LongAdder invalid = new LongAdder();
        final LongAdder batches = new LongAdder();
        final LongAdder deliveryFailures = new LongAdder();
        final LongAdder receiptsSent = new LongAdder();
        final LongAdder receiptsReceived = new LongAdder();
        final LongAdder receiptFailures = new LongAdder();
    }

    private record Subscription(MessageType type, DataReader<KmtfMessageSample> reader) {
    }

    void subscribe(InboundHandler handler, Map<MessageType, DataReader<KmtfMessageSample>> readers) {
        this.inboundHandler = handler;
        readers.forEach((type, reader) -> {
            this.subscriptions.put(reader, new Subscription(type, reader));
            this.waitSet.attach(reader);
        });
    }

    void onReceipts(ReceiptHandler handler, DataReader<KmtfReceiptSample> reader) {
        this.receiptHandler = handler;
        this.receiptReader = reader;
        this.waitSet.attach(reader);
    }

    List<DataReader<KmtfMessageSample>> readers() {
        return this.subscriptions.values().stream().map(Subscription::reader).toList();
    }

    Map<MessageType, DataReader<KmtfMessageSample>> readersByType() {
        Map<MessageType, DataReader<KmtfMessageSample>> readers = new LinkedHashMap<>();
        this.subscriptions.values().forEach(s -> readers.put(s.type(), s.reader()));
        return readers;
    }

    void stop() {
        this.running = false;
        this.waitSet.wakeup();
    }

    @Override
    public void run() {
        while (this.running) {
            try {
                List<DataReader<?>> ready = this.waitSet.await(POLL);
                List<Envelope> batch = new ArrayList<>();
                for (DataReader<?> reader : ready) {
                    if (reader == this.receiptReader) {
                        takeReceipts();
                    }
                    else if (batch.size() < this.settings.maxBatch()) {
                        // What does not fit keeps the condition triggered for the next round.
                        takeMessages(this.subscriptions.get(reader), batch);
                    }
                }
                if (!batch.isEmpty() && deliver(batch)) {
                    publishReceipts(batch);
                }
            }
            catch (IllegalStateException ex) {
                if (this.running) {
                    log.error("DDS receive loop of node {} stopped: {}", this.node, ex.getMessage(), ex);
                }
                return;
            }
            catch (RuntimeException ex) {
                log.error("DDS receive loop of node {} failed; retrying", this.node, ex);
                pause(POLL);
            }
        }
    }

    private void takeMessages(Subscription subscription, List<Envelope> batch) {
        MessageType type = subscription.type();
        subscription.reader().take(this.settings.maxBatch() - batch.size(), sample -> {
            if (this.node.value().equals(sample.origin())) {
                return;
            }
            try {
                batch.add(EnvelopeMapper.toEnvelope(sample, type));
                this.counters.received.increment();
            }
            catch (IllegalArgumentException ex) {
                this.counters.invalid.increment();
                log.warn("Dropped an invalid {} sample: {}", type.id(), ex.getMessage());
            }
        });
    }

    /** Hands the batch to the handler until it accepts it or the transport closes. */
    private boolean deliver(List<Envelope> batch) {
        List<Envelope> view = List.copyOf(batch);
        Duration delay = this.settings.redeliveryDelay();
        while (this.running) {
            try {
                this.inboundHandler.deliver(view);
                this.counters.batches.increment();
                return true;
            }
            catch (Exception ex) {
                this.counters.deliveryFailures.increment();
                log.warn("Inbound handler refused a batch of {} messages; handing it over again in {} ms",
                        view.size(), delay.toMillis(), ex);
                pause(delay);
                delay = delay.multipliedBy(2).compareTo(MAX_REDELIVERY_DELAY) > 0 ? MAX_REDELIVERY_DELAY
                        : delay.multipliedBy(2);
            }
        }
        return false;
    }

    private void publishReceipts(List<Envelope> batch) {
        Map<NodeId, List<String>> byOrigin = new LinkedHashMap<>();
        batch.forEach(e -> byOrigin.computeIfAbsent(e.origin(), o -> new ArrayList<>()).add(e.messageId()));
        byOrigin.forEach((origin, ids) -> {
            try {
                DataWriter<KmtfReceiptSample> writer = receiptWriter(origin);
                writer.write(new KmtfReceiptSample(this.node.value(), origin.value(), ids));
                // Under write batching the receipt would otherwise wait for this writer's next receipt.
                writer.flush();
                this.counters.receiptsSent.increment();
            }
            catch (RuntimeException ex) {
                this.counters.receiptFailures.increment();
                log.warn("Unable to publish a receipt for {} messages to {}; it will resend them", ids.size(),
                        origin, ex);
            }
        });
    }

    private DataWriter<KmtfReceiptSample> receiptWriter(NodeId origin) {
        // One writer per origin, so the partition keeps each receipt to the one node that needs it. The writer
        // keeps recent receipts (TRANSIENT_LOCAL) for the origin's reader, which may match only after this write.
        return this.receiptWriters.computeIfAbsent(origin, o -> this.participant.createWriter(this.receiptTopic,
                TopicQos.receipts(o, this.settings.writeTimeout())));
    }

    private void takeReceipts() {
        ReceiptHandler handler = this.receiptHandler;
        this.receiptReader.take(this.settings.maxBatch(), receipt -> {
            if (!this.node.value().equals(receipt.origin())) {
                return;
            }
            NodeId receiver;
            try {
                receiver = NodeId.of(receipt.receiver());
            }
            catch (IllegalArgumentException ex) {
                this.counters.invalid.increment();
                log.warn("Dropped a receipt with an invalid receiver: {}", ex.getMessage());
                return;
            }
            this.counters.receiptsReceived.increment();
            try {
                handler.receipted(receiver, receipt.messageIds());
            }
            catch (RuntimeException ex) {
                log.warn("Receipt handler failed for {} ids from {}", receipt.messageIds().size(), receiver, ex);
            }
        });
    }

    private void pause(Duration delay) {
        long until = System.nanoTime() + delay.toNanos();
        while (this.running && System.nanoTime() < until) {
            try {
                Thread.sleep(Math.min(50, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

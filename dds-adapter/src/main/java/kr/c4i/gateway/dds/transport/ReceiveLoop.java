package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.WaitSet;
import kr.c4i.gateway.dds.security.SecurePartitions;
import kr.c4i.gateway.dds.transport.EnvelopeMapper.InvalidSample;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfReceiptSample;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * The transport's one receive thread: a wait set with one read condition per reader serves every subscribed type
 * and the receipt reader. Messages are taken (lent, copied, returned) as fast as the readers hold them, turned into
 * envelopes, held, and handed to the inbound handler in batches, most urgent first ({@link HeldMessages}); once the
 * handler returns, a receipt per origin is published in that origin's partition for the envelopes it delivered, in
 * the order they arrived per origin and type ({@link ReceiptOrder}). A batch the handler fails on is handed to it
 * again after a growing delay, so nothing taken is dropped while the transport is open; if it closes first, the
 * origin resends what stays unreceipted.
 *
 * <p>A sample that is no envelope (undecodable, on the wrong topic, over the type's size, blank id, invalid origin)
 * is counted as invalid and handed to the handler as an {@link InboundRefusal} with the batch, never dropped
 * silently. Neither it nor an envelope the handler refuses is receipted: a refusal is not a delivery (see
 * docs/architecture.md, "Receiving-side quarantine").
 */
final class ReceiveLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ReceiveLoop.class);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration MAX_REDELIVERY_DELAY = Duration.ofSeconds(10);
    /** The hold: up to this many batches, and this many bytes of message text, taken ahead of the handler. */
    private static final int HOLD_BATCHES = 64;
    private static final long HOLD_BYTES = 32L << 20;
    /** The refusal kind of a message whose origin its writer's partition does not allow. */
    static final String FORGED_ORIGIN = DdsTransportStats.REFUSED_FORGED_ORIGIN;

    private final NodeId node;
    private final DomainParticipant participant;
    private final WaitSet waitSet;
    private final Topic<KmtfReceiptSample> receiptTopic;
    private final DdsTransportSettings settings;
    private final Counters counters;
    // This node's and, on a WAN gateway, the relayed origins' names: their samples are own, their receipts ours.
    private final Set<String> ownOrigins;
    private final Function<Envelope, Set<NodeId>> receiversFor;
    private final Map<DataReader<?>, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<NodeId, DataWriter<KmtfReceiptSample>> receiptWriters = new ConcurrentHashMap<>();
    private volatile DataReader<KmtfReceiptSample> receiptReader;
    private volatile ReceiptHandler receiptHandler;
    private volatile InboundHandler inboundHandler;
    private volatile boolean running = true;
    // The receive thread's only: which ready reader takes first in the next round, and what was taken.
    private int rotation;
    private final HeldMessages held;
    private final ReceiptOrder receiptOrder = new ReceiptOrder();
    private final AtomicLong invalidLogged = new AtomicLong();
    // With DDS Security: what each matched writer's partitions allow, by publication handle (handles are unique
    // for the process's life, so an entry never goes stale; a bound keeps churn from growing it).
    private final boolean secured;
    private final Map<Long, Set<String>> allowedByWriter = new ConcurrentHashMap<>();
    private static final int MAX_KNOWN_WRITERS = 10_000;

    ReceiveLoop(NodeId node, DomainParticipant participant, Topic<KmtfReceiptSample> receiptTopic,
            DdsTransportSettings settings, Counters counters) {
        this(node, participant, receiptTopic, settings, counters, null);
    }

    /** @param relaying how a WAN gateway receipts and what it publishes for others; {@code null} for a node */
    ReceiveLoop(NodeId node, DomainParticipant participant, Topic<KmtfReceiptSample> receiptTopic,
            DdsTransportSettings settings, Counters counters, @Nullable Relaying relaying) {
        Set<String> own = new HashSet<>();
        own.add(node.value());
        if (relaying != null) {
            relaying.origins().forEach(o -> own.add(o.value()));
        }
        this.ownOrigins = Set.copyOf(own);
        this.receiversFor = (relaying != null) ? relaying.receiversFor() : e -> Set.of(node);
        this.node = node;
        this.participant = participant;
        this.receiptTopic = receiptTopic;
        this.settings = settings;
        this.counters = counters;
        this.waitSet = participant.createWaitSet();
        this.secured = settings.participant().security() != null;
        this.held = new HeldMessages((int) Math.min(Integer.MAX_VALUE, (long) settings.maxBatch() * HOLD_BATCHES),
                HOLD_BYTES);
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
        final LongAdder forgedOrigins = new LongAdder();
        final LongAdder forgedReceipts = new LongAdder();
    }

    /** {@code undecodable}: how many undecodable samples of the reader have been handed on as refusals. */
    private record Subscription(MessageType type, DataReader<KmtfMessageSample> reader, AtomicLong undecodable) {
    }

    void subscribe(InboundHandler handler, Map<MessageType, DataReader<KmtfMessageSample>> readers) {
        this.inboundHandler = handler;
        readers.forEach((type, reader) -> {
            this.subscriptions.put(reader, new Subscription(type, reader, new AtomicLong()));
            this.waitSet.attach(reader);
        });
    }

    void onReceipts(ReceiptHandler handler, DataReader<KmtfReceiptSample> reader) {
        this.receiptHandler = handler;
        this.receiptReader = reader;
        this.waitSet.attach(reader);
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
                // While messages are held, only look for more: the handler waits for none of them.
                List<DataReader<?>> ready = this.waitSet.await(this.held.isEmpty() ? POLL : Duration.ZERO);
                List<Subscription> withMessages = new ArrayList<>(ready.size());
                for (DataReader<?> reader : ready) {
                    if (reader == this.receiptReader) {
                        takeReceipts();
                    }
                    else {
                        withMessages.add(this.subscriptions.get(reader));
                    }
                }
                takeAll(withMessages);
                List<Envelope> batch = new ArrayList<>();
                List<InboundRefusal> refused = new ArrayList<>();
                this.held.next(this.settings.maxBatch(), batch, refused);
                if (!batch.isEmpty() || !refused.isEmpty()) {
                    List<Envelope> delivered = deliver(batch, refused);
                    if (delivered != null) {
                        publishReceipts(this.receiptOrder.handedOver(batch, delivered));
                    }
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

    /**
     * Takes what the readers hold into the hold, a batch's worth from each in turn, starting at another reader each
     * round, until they are empty or the hold is full. What does not fit keeps its reader's condition triggered.
     */
    private void takeAll(List<Subscription> ready) {
        if (ready.isEmpty()) {
            return;
        }
        List<Subscription> readers = new ArrayList<>(ready);
        Collections.rotate(readers, -Math.floorMod(this.rotation++, readers.size()));
        while (!readers.isEmpty() && this.held.hasRoom()) {
            Iterator<Subscription> each = readers.iterator();
            while (each.hasNext()) {
                int wanted = Math.min(this.settings.maxBatch(), this.held.room());
                if (wanted == 0) {
                    return;
                }
                if (takeMessages(each.next(), wanted) < wanted) {
                    each.remove();
                }
            }
        }
    }

    /** Takes up to {@code max} samples of the reader; returns how many it took. */
    private int takeMessages(Subscription subscription, int max) {
        MessageType type = subscription.type();
        int[] decoded = new int[1];
        DataReader<KmtfMessageSample> reader = subscription.reader();
        int taken = reader.takeWithPublication(max, (sample, publication) -> {
            decoded[0]++;
            if (this.ownOrigins.contains(sample.origin())) {
                return;
            }
            if (this.secured && !allowed(reader, publication, true).contains(sample.origin())) {
                this.counters.forgedOrigins.increment();
                this.held.add(new InboundRefusal(sample.origin(), sample.messageId(), sample.messageType(),
                        type.topicName(), FORGED_ORIGIN, "origin " + sample.origin() + " is not one its writer's "
                        + "partition allows " + allowed(reader, publication, true) + ": a node wrote as another",
                        sample.body()));
                logInvalid(type, FORGED_ORIGIN, "origin " + sample.origin());
                return;
            }
            try {
                Envelope envelope = EnvelopeMapper.toEnvelope(sample, type);
                this.held.add(envelope);
                this.receiptOrder.arrived(envelope);
                this.counters.received.increment();
            }
            catch (InvalidSample ex) {
                this.counters.invalid.increment();
                this.held.add(EnvelopeMapper.refusal(sample, type, ex));
                logInvalid(type, ex.kind, ex.getMessage());
            }
        });
        if (taken > decoded[0]) {
            // Either undecodable samples (the binding counts them) or instance changes without data.
            long undecodable = subscription.reader().status().undecodable();
            long added = undecodable - subscription.undecodable().getAndSet(undecodable);
            for (long i = 0; i < added; i++) {
                this.held.add(new InboundRefusal(null, null, null, type.topicName(), "undecodable", "a sample on "
                        + type.topicName() + " could not be decoded (a string that is not UTF-8 or over 1 MiB, a "
                        + "corrupt sequence); the DDS binding's warning names the member", null));
                logInvalid(type, "undecodable", "a sample could not be decoded");
            }
        }
        return taken;
    }

    private void logInvalid(MessageType type, String kind, String reason) {
        long count = this.invalidLogged.incrementAndGet();
        // Logged sparsely: a misbehaving remote writer could otherwise flood the log; the handler keeps each one.
        if (Long.bitCount(count) == 1) {
            log.warn("Invalid sample #{} on the topic of {}, handed on as refused: {}: {}", count, type.id(), kind,
                    reason);
        }
    }

    /**
     * Hands the batch to the handler until it takes it or the transport closes.
     *
     * @return the envelopes the handler delivered, or {@code null} if the transport closed first
     */
    private List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) {
        List<Envelope> view = List.copyOf(batch);
        List<InboundRefusal> refusals = List.copyOf(refused);
        Backoff delay = new Backoff(this.settings.redeliveryDelay(), MAX_REDELIVERY_DELAY);
        while (this.running) {
            try {
                List<Envelope> delivered = this.inboundHandler.deliver(view, refusals);
                this.counters.batches.increment();
                return delivered;
            }
            catch (Exception ex) {
                this.counters.deliveryFailures.increment();
                log.warn("Inbound handler refused a batch of {} messages; handing it over again in {} ms",
                        view.size(), delay.current().toMillis(), ex);
                pause(delay.next());
            }
        }
        return null;
    }

    private void publishReceipts(List<Envelope> batch) {
        Map<NodeId, Map<NodeId, List<String>>> byOrigin = new LinkedHashMap<>();
        for (Envelope e : batch) {
            Set<NodeId> receivers;
            try {
                receivers = this.receiversFor.apply(e);
            }
            catch (RuntimeException ex) {
                // Not receipted, so the origin resends it; the next round may know its receivers.
                this.counters.receiptFailures.increment();
                log.warn("Unable to tell who receipts message {}; not receipting it", e.messageId(), ex);
                continue;
            }
            for (NodeId receiver : receivers) {
                byOrigin.computeIfAbsent(e.origin(), o -> new LinkedHashMap<>())
                        .computeIfAbsent(receiver, r -> new ArrayList<>()).add(e.messageId());
            }
        }
        byOrigin.forEach((origin, byReceiver) -> byReceiver.forEach((receiver, ids) -> {
            try {
                DataWriter<KmtfReceiptSample> writer = receiptWriter(origin);
                writer.write(new KmtfReceiptSample(receiver.value(), origin.value(), ids));
                // Under write batching the receipt would otherwise wait for this writer's next receipt.
                writer.flush();
                this.counters.receiptsSent.increment();
            }
            catch (RuntimeException ex) {
                this.counters.receiptFailures.increment();
                log.warn("Unable to publish a receipt as {} for {} messages to {}; it will resend them", receiver,
                        ids.size(), origin, ex);
            }
        }));
    }

    private DataWriter<KmtfReceiptSample> receiptWriter(NodeId origin) {
        // One writer per origin, so the partition keeps each receipt to the one node that needs it. The writer
        // keeps recent receipts (TRANSIENT_LOCAL) for the origin's reader, which may match only after this write.
        return this.receiptWriters.computeIfAbsent(origin, o -> {
            Qos qos = TopicQos.receipts(o, this.settings.writeTimeout());
            if (this.secured) {
                // Receipts as this node, or as a relayed one: each pair its permissions grant.
                qos = qos.withPartitions(this.ownOrigins.stream().sorted()
                        .map(r -> SecurePartitions.receipts(o, NodeId.of(r))).toList());
            }
            return this.participant.createWriter(this.receiptTopic, qos);
        });
    }

    private void takeReceipts() {
        ReceiptHandler handler = this.receiptHandler;
        DataReader<KmtfReceiptSample> reader = this.receiptReader;
        reader.takeWithPublication(this.settings.maxBatch(), (receipt, publication) -> {
            if (!this.ownOrigins.contains(receipt.origin())) {
                return;
            }
            if (this.secured && !allowed(reader, publication, false)
                    .contains(SecurePartitions.receiptPair(receipt.origin(), receipt.receiver()))) {
                this.counters.forgedReceipts.increment();
                long count = this.counters.forgedReceipts.sum();
                if (Long.bitCount(count) == 1) {
                    log.warn("Dropped forged receipt #{}: receiver {} for origin {} is not what its writer's "
                            + "partition allows {}", count, receipt.receiver(), receipt.origin(),
                            allowed(reader, publication, false));
                }
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

    /**
     * What the writer of a sample may claim: origins ({@code messages}) or origin.receiver pairs, from its
     * partitions as (authenticated) discovery reported them. A writer no longer matched allows nothing.
     */
    private Set<String> allowed(DataReader<?> reader, long publication, boolean messages) {
        Set<String> known = this.allowedByWriter.get(publication);
        if (known != null) {
            return known;
        }
        List<String> partitions = reader.publicationPartitions(publication);
        if (partitions == null) {
            return Set.of();
        }
        Set<String> allowed = messages ? SecurePartitions.originsOf(partitions)
                : SecurePartitions.receiptPairsOf(partitions);
        if (this.allowedByWriter.size() >= MAX_KNOWN_WRITERS) {
            this.allowedByWriter.clear();
        }
        this.allowedByWriter.put(publication, allowed);
        return allowed;
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

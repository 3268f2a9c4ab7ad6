package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.core.transport.ReceiptingTransport;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.ReaderStatus;
import kr.c4i.gateway.dds.SecurityRefusals;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.dds.security.SecurePartitions;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfReceiptSample;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * KMTF over DDS: one topic per catalogue type (its {@code topicName}, QoS from its reliability and history, see
 * {@link TopicQos}), a writer for every type from {@link #open}, readers for the types this node subscribes to,
 * and end-to-end receipts for {@link ReceiptingTransport}. A message is published once and reaches every
 * subscribed node (multicast where the network allows), so {@link Outbound#destinations()} is not used.
 *
 * <pre>{@code
 * DdsTransport dds = new DdsTransport(NodeId.of("alpha"), catalogue, routing.subscriptions(NodeId.of("alpha")),
 *         DdsTransportSettings.builder(Duration.ofSeconds(10), 4096)
 *                 .participant(ParticipantSettings.builder().domainId(7).build()).build());
 * dds.open();
 * dds.onReceipts((receiver, ids) -> outbox.receipted(receiver, ids));
 * dds.subscribe(batch -> inbox.insertAll(batch));
 * dds.send(outbound);
 * }</pre>
 */
public final class DdsTransport implements ReceiptingTransport {

    private static final Logger log = LoggerFactory.getLogger(DdsTransport.class);

    private final NodeId node;
    private final KmtfCatalogue catalogue;
    private final Set<String> subscribedTypes;
    private final DdsTransportSettings settings;
    private final @Nullable Relaying relaying;
    private final ReceiveLoop.Counters counters = new ReceiveLoop.Counters();
    private final LongAdder written = new LongAdder();
    private final LongAdder unmatched = new LongAdder();
    private final Set<String> ownReaders = ConcurrentHashMap.newKeySet();
    private volatile Map<String, Integer> expectedReaders = Map.of();
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private volatile State state = State.NEW;
    // Set by open(), and the handler by onReceipts; null until then.
    private @Nullable DomainParticipant participant;
    private @Nullable Topic<KmtfReceiptSample> receiptTopic;
    private @Nullable ReceiveLoop receiveLoop;
    private @Nullable Thread receiveThread;
    private @Nullable ReceiptHandler receiptHandler;
    private boolean subscribed;
    private Duration openTime = Duration.ZERO;

    private enum State {
        NEW, OPEN, CLOSED
    }

    /** A type's topic and writer; {@code seq} numbers this writer's samples from 1. */
    private record Channel(MessageType type, DataWriter<KmtfMessageSample> writer, AtomicLong seq) {
    }

    /**
     * @param node this gateway's node id: the origin of what it sends, the receiver named in its receipts
     * @param catalogue every type gets a topic and a writer
     * @param subscribedTypes the catalogue ids this node receives (from the routing table); may be empty
     * @throws IllegalArgumentException naming subscribed types the catalogue does not define
     */
    public DdsTransport(NodeId node, KmtfCatalogue catalogue, Set<String> subscribedTypes,
            DdsTransportSettings settings) {
        this(node, catalogue, subscribedTypes, settings, null);
    }

    /**
     * The transport of a site's WAN gateway, which stands in for the nodes at other sites (see {@link Relaying}):
     * it publishes their messages, reads the receipts for them, and receipts what it delivers as the nodes
     * {@link Relaying#receiversFor()} names.
     *
     * @param node the gateway's own node id
     * @param relaying for whom it publishes and as whom it receipts; {@code null} for an ordinary node
     * @throws IllegalArgumentException naming subscribed types the catalogue does not define
     */
    public DdsTransport(NodeId node, KmtfCatalogue catalogue, Set<String> subscribedTypes,
            DdsTransportSettings settings, @Nullable Relaying relaying) {
        this.relaying = relaying;
        this.node = Objects.requireNonNull(node, "node");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.subscribedTypes = Set.copyOf(subscribedTypes);
        List<String> unknown = this.subscribedTypes.stream().filter(id -> catalogue.find(id).isEmpty()).sorted()
                .toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unable to subscribe to " + unknown + ": the catalogue ("
                    + catalogue.size() + " types) does not define them");
        }
    }

    @Override
    public TransportKind kind() {
        return TransportKind.DDS;
    }

    /**
     * Joins the domain and creates a topic and a writer for every catalogue type, plus the receipt topic.
     *
     * @throws TransportUnavailableException if the native library cannot be loaded or the domain not joined
     * @throws IllegalStateException if already opened
     */
    @Override
    public synchronized void open() throws TransportException {
        if (this.state != State.NEW) {
            throw new IllegalStateException("The DDS transport of node " + this.node + " was already opened");
        }
        long start = System.nanoTime();
        try {
            this.participant = DomainParticipant.create(this.settings.participant());
        }
        catch (IllegalStateException | DdsException ex) {
            throw new TransportUnavailableException("Unable to join DDS domain " + this.settings.participant()
                    .domainId() + ": " + ex.getMessage(), ex);
        }
        try {
            for (MessageType type : this.catalogue.types()) {
                Topic<KmtfMessageSample> topic = this.participant.createTopic(type.topicName(), KmtfTypes.MESSAGE);
                Qos qos = TopicQos.writer(type, this.settings.writeTimeout());
                if (secured()) {
                    qos = qos.withPartitions(origins().stream().map(SecurePartitions::messages).toList());
                }
                DataWriter<KmtfMessageSample> writer = this.participant.createWriter(topic, qos);
                this.channels.put(type.id(), new Channel(type, writer, new AtomicLong()));
            }
            this.receiptTopic = this.participant.createTopic(this.settings.receiptsTopic(), KmtfTypes.RECEIPT);
            this.receiveLoop = new ReceiveLoop(this.node, this.participant, this.receiptTopic, this.settings,
                    this.counters, this.relaying);
            if (this.receiptHandler != null) {
                attachReceiptReader();
            }
        }
        catch (RuntimeException ex) {
            this.participant.close();
            this.channels.clear();
            throw new TransportUnavailableException("Unable to create the KMTF topics in DDS domain "
                    + this.participant.domainId() + ": " + ex.getMessage(), ex);
        }
        this.openTime = Duration.ofNanos(System.nanoTime() - start);
        this.state = State.OPEN;
        log.info("DDS transport of node {} opened in domain {} through {}: {} topics and writers in {} ms",
                this.node, this.participant.domainId(), this.participant.bindingName(), this.channels.size(),
                this.openTime.toMillis());
    }

    /**
     * Registers the receipt handler; call before or after {@link #open}, before {@link #subscribe}, and only on a
     * node that sends. Receipts arrive on the transport's receive thread.
     */
    @Override
    public synchronized void onReceipts(ReceiptHandler handler) {
        Objects.requireNonNull(handler, "handler");
        if (this.receiptHandler != null) {
            throw new IllegalStateException("A receipt handler is already registered");
        }
        this.receiptHandler = handler;
        if (this.state == State.OPEN) {
            attachReceiptReader();
        }
    }

    /** With DDS Security on, messages and receipts travel in the partitions that bind them to their writers. */
    private boolean secured() {
        return this.settings.participant().security() != null;
    }

    /** This node and the origins it relays for: whom it publishes and receipts as. */
    private Set<NodeId> origins() {
        Set<NodeId> origins = new TreeSet<>(Set.of(this.node));
        if (this.relaying != null) {
            origins.addAll(this.relaying.origins());
        }
        return origins;
    }

    private void attachReceiptReader() {
        Set<NodeId> origins = origins();
        Qos qos = TopicQos.receipts(origins, this.settings.writeTimeout());
        if (secured()) {
            qos = qos.withPartitions(origins.stream().map(SecurePartitions::receiptsFor).toList());
        }
        DataReader<KmtfReceiptSample> reader = this.participant.createReader(this.receiptTopic, qos);
        this.receiveLoop.onReceipts(this.receiptHandler, reader);
        startReceiving();
    }

    /**
     * Creates readers for the subscribed types and starts delivering batches to the handler on the receive thread.
     *
     * @throws TransportUnavailableException if the transport is not open or the readers cannot be created
     * @throws IllegalStateException if a handler is already subscribed
     */
    @Override
    public synchronized void subscribe(InboundHandler handler) throws TransportException {
        Objects.requireNonNull(handler, "handler");
        requireOpen();
        if (this.subscribed) {
            throw new IllegalStateException("The DDS transport of node " + this.node + " already has a handler");
        }
        Map<MessageType, DataReader<KmtfMessageSample>> readers = new LinkedHashMap<>();
        try {
            for (String id : this.subscribedTypes) {
                Channel channel = this.channels.get(id);
                Qos qos = TopicQos.reader(channel.type(), this.settings.bestEffortBacklog());
                if (secured()) {
                    qos = qos.withPartitions(List.of(SecurePartitions.ALL_ORIGINS));
                }
                readers.put(channel.type(), this.participant.createReader(channel.writer().topic(), qos));
            }
            this.receiveLoop.subscribe(handler, readers);
        }
        catch (RuntimeException ex) {
            readers.values().forEach(DataReader::close);
            throw new TransportUnavailableException("Unable to subscribe node " + this.node + " to "
                    + this.subscribedTypes.size() + " DDS topics: " + ex.getMessage(), ex);
        }
        this.subscribed = true;
        this.ownReaders.addAll(this.subscribedTypes);
        startReceiving();
    }

    private void startReceiving() {
        if (this.receiveThread == null) {
            this.receiveThread = Thread.ofPlatform().daemon().name("dds-receive-" + this.node)
                    .start(this.receiveLoop);
        }
    }

    /**
     * Publishes each message on its type's topic. Every message of the batch is checked first, so a message the
     * wire can never carry is rejected before anything is written. Before it returns (or throws), every writer it
     * wrote to is flushed, so with {@link kr.c4i.gateway.dds.ParticipantSettings#writeBatch() write batching} the batch shares
     * datagrams but none of it waits for a later {@code send}. A BEST_EFFORT message is lost for each of its
     * {@link Outbound#destinations() destinations} whose reader is not matched when it is written: each such loss
     * is counted ({@link DdsTransportStats#droppedUnmatched()}). RELIABLE ones are resent by the receipt protocol.
     *
     * @throws MessageRejectedException for the first message whose type this transport does not know, whose body
     *         is over the type's maximum size, or whose text is not valid UTF-8
     * @throws TransportUnavailableException if a RELIABLE writer stayed full for the write timeout (readers not
     *         keeping up), or the transport is not open
     */
    @Override
    public void send(List<Outbound> batch) throws TransportException {
        requireOpen();
        List<Channel> targets = new ArrayList<>(batch.size());
        List<KmtfMessageSample> samples = new ArrayList<>(batch.size());
        long now = EnvelopeMapper.epochNanos(Instant.now());
        for (Outbound outbound : batch) {
            String id = outbound.envelope().messageId();
            Channel channel = this.channels.get(outbound.type().id());
            if (channel == null) {
                throw new MessageRejectedException(id, "Message " + id + " has type " + outbound.type().id()
                        + ", which is not in the catalogue this DDS transport was opened with ("
                        + this.channels.size() + " types)", null);
            }
            if (!channel.type().topicName().equals(outbound.type().topicName())) {
                throw new MessageRejectedException(id, "Message " + id + " names topic "
                        + outbound.type().topicName() + " for type " + outbound.type().id()
                        + ", but this DDS transport publishes it on " + channel.type().topicName(), null);
            }
            targets.add(channel);
            samples.add(EnvelopeMapper.toSample(outbound.envelope(), channel.type(), 0, now));
        }
        // With write batching a written sample may wait in its writer for the next one: every writer written to is
        // flushed before returning, also when a write failed, so nothing sent waits for a later send.
        Set<Channel> written = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<Channel, Integer> remoteReaders = new IdentityHashMap<>();
        try {
            for (int i = 0; i < samples.size(); i++) {
                Channel channel = targets.get(i);
                written.add(channel);
                write(channel, samples.get(i).withSeq(channel.seq().incrementAndGet()));
                if (channel.type().reliability() == Reliability.BEST_EFFORT) {
                    int matched = remoteReaders.computeIfAbsent(channel, this::remoteReaders);
                    countUnmatched(channel, batch.get(i).destinations().size() - matched);
                }
            }
        }
        catch (TransportException | RuntimeException ex) {
            try {
                flush(written);
            }
            catch (TransportUnavailableException flushFailure) {
                ex.addSuppressed(flushFailure);
            }
            throw ex;
        }
        flush(written);
    }

    /** Readers of other nodes matched with the channel's writer now: this node's own reader matches it too. */
    private int remoteReaders(Channel channel) {
        try {
            int matched = channel.writer().status().matchedReaders();
            return Math.max(0, matched - (this.ownReaders.contains(channel.type().id()) ? 1 : 0));
        }
        catch (IllegalStateException | DdsException ex) {
            return Integer.MAX_VALUE;
        }
    }

    private void countUnmatched(Channel channel, int missing) {
        if (missing <= 0) {
            return;
        }
        long before = this.unmatched.sum();
        this.unmatched.add(missing);
        // Logged sparsely: a destination that stays away would otherwise log every message.
        if (Long.highestOneBit(before + missing) != Long.highestOneBit(before)) {
            log.warn("BEST_EFFORT message of {} written while {} of its destinations had no matched reader: dropped "
                    + "for them ({} such drops so far)", channel.type().id(), missing, before + missing);
        }
    }

    /**
     * Waits until the writer of every type in {@code expected} is matched with at least that many readers of
     * other nodes (the type's destinations in the routing table), or until the timeout. Health reports the types
     * still short of their readers from then on.
     *
     * @param expected catalogue type id to the number of other nodes that subscribe to it
     * @return the types still short, each with {@code "matched of expected"}; empty once all are matched
     * @throws IllegalStateException if the transport is not open
     */
    public Map<String, String> awaitRemoteReaders(Map<String, Integer> expected, Duration timeout)
            throws InterruptedException {
        if (this.state != State.OPEN) {
            throw new IllegalStateException("The DDS transport of node " + this.node + " is not open");
        }
        this.expectedReaders = Map.copyOf(expected);
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, String> missing = unmatchedRoutes();
        while (!missing.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
            missing = unmatchedRoutes();
        }
        return missing;
    }

    /** The types whose writers have fewer readers of other nodes than {@link #awaitRemoteReaders} expects. */
    public Map<String, String> unmatchedRoutes() {
        Map<String, String> missing = new TreeMap<>();
        if (this.state != State.OPEN) {
            return missing;
        }
        this.expectedReaders.forEach((type, readers) -> {
            Channel channel = this.channels.get(type);
            if (channel != null && readers > 0) {
                int matched = remoteReaders(channel);
                if (matched < readers) {
                    missing.put(type, matched + " of " + readers + " readers");
                }
            }
        });
        return missing;
    }

    private void flush(Set<Channel> written) throws TransportUnavailableException {
        TransportUnavailableException failure = null;
        for (Channel channel : written) {
            try {
                channel.writer().flush();
            }
            catch (IllegalStateException ex) {
                if (failure == null) {
                    failure = new TransportUnavailableException("Unable to flush the DDS writer on "
                            + channel.type().topicName() + ": " + ex.getMessage(), ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void write(Channel channel, KmtfMessageSample sample) throws TransportException {
        try {
            channel.writer().write(sample);
            this.written.increment();
        }
        catch (DdsException.Timeout ex) {
            throw new TransportUnavailableException("DDS writer on " + channel.type().topicName() + " stayed full for "
                    + this.settings.writeTimeout().toMillis() + " ms: its readers are not keeping up", ex);
        }
        catch (IllegalArgumentException ex) {
            throw new MessageRejectedException(sample.messageId(), "Message " + sample.messageId() + ": "
                    + ex.getMessage(), ex);
        }
        catch (DdsException | IllegalStateException ex) {
            throw new TransportUnavailableException("Unable to publish message " + sample.messageId() + " on "
                    + channel.type().topicName() + ": " + ex.getMessage(), ex);
        }
    }

    /** Counters since {@link #open}; cheap enough to poll from a metrics binder every few seconds. */
    public DdsTransportStats stats() {
        long lost = 0;
        long rejected = 0;
        long undecodable = 0;
        long bestEffortLost = 0;
        long bestEffortRejected = 0;
        Map<String, Integer> matched = new TreeMap<>();
        SecurityRefusals participantsRefused = SecurityRefusals.NONE;
        if (this.state == State.OPEN) {
            try {
                participantsRefused = this.participant.securityRefusals();
                if (this.receiveLoop != null) {
                    for (Map.Entry<MessageType, DataReader<KmtfMessageSample>> entry : this.receiveLoop.readersByType()
                            .entrySet()) {
                        ReaderStatus status = entry.getValue().status();
                        lost += status.samplesLost();
                        rejected += status.samplesRejected();
                        undecodable += status.undecodable();
                        if (entry.getKey().reliability() == Reliability.BEST_EFFORT) {
                            bestEffortLost += status.samplesLost();
                            bestEffortRejected += status.samplesRejected();
                        }
                    }
                }
                this.channels.values().forEach(c -> matched.put(c.type().topicName(),
                        c.writer().status().matchedReaders()));
            }
            catch (IllegalStateException | DdsException ex) {
                log.debug("DDS statistics incomplete: {}", ex.getMessage());
            }
        }
        return new DdsTransportStats(this.written.sum(), this.counters.received.sum(), lost, rejected,
                this.counters.invalid.sum() + undecodable, this.counters.batches.sum(),
                this.counters.deliveryFailures.sum(), this.counters.receiptsSent.sum(),
                this.counters.receiptsReceived.sum(), this.counters.receiptFailures.sum(), matched,
                this.unmatched.sum(), bestEffortLost, bestEffortRejected, this.counters.forgedOrigins.sum(),
                this.counters.forgedReceipts.sum(), participantsRefused);
    }

    /** How long {@link #open} took to join the domain and create every topic and writer. */
    public Duration openTime() {
        return this.openTime;
    }

    @Override
    public TransportHealth health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("node", this.node.value());
        details.put("domainId", this.settings.participant().domainId());
        details.put("state", this.state.name().toLowerCase(Locale.ROOT));
        if (this.state != State.OPEN) {
            return TransportHealth.down(details);
        }
        boolean participantAlive = this.participant.isAlive();
        Thread thread = this.receiveThread;
        boolean receiving = thread == null || thread.isAlive();
        DdsTransportStats stats = stats();
        details.put("binding", this.participant.bindingName());
        details.put("participantAlive", participantAlive);
        details.put("receiveThreadAlive", receiving);
        details.put("topics", this.channels.size());
        details.put("readers", this.receiveLoop.readersByType().size());
        details.put("matchedReaders", stats.totalMatchedReaders());
        details.put("samplesWritten", stats.samplesWritten());
        details.put("samplesReceived", stats.samplesReceived());
        details.put("samplesLost", stats.samplesLost());
        details.put("samplesInvalid", stats.samplesInvalid());
        details.put("samplesDropped", stats.dropped());
        Map<String, String> unmatchedRoutes = unmatchedRoutes();
        if (!unmatchedRoutes.isEmpty()) {
            details.put("unmatchedRoutes", unmatchedRoutes);
        }
        return participantAlive && receiving ? TransportHealth.up(details) : TransportHealth.down(details);
    }

    /**
     * Stops the receive thread (waiting for a handler call in progress), then deletes every DDS entity. Messages
     * in writer histories that no reader acknowledged yet are dropped; the receipt protocol resends them.
     */
    @Override
    public void close() {
        Thread thread;
        synchronized (this) {
            if (this.state == State.CLOSED) {
                return;
            }
            boolean wasOpen = this.state == State.OPEN;
            this.state = State.CLOSED;
            if (!wasOpen) {
                return;
            }
            thread = this.receiveThread;
        }
        this.receiveLoop.stop();
        if (thread != null) {
            try {
                thread.join(this.settings.writeTimeout().toMillis() + 5_000);
                if (thread.isAlive()) {
                    log.warn("DDS receive thread of node {} did not stop; interrupting it", this.node);
                    thread.interrupt();
                    thread.join(5_000);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        this.participant.close();
        log.info("DDS transport of node {} closed", this.node);
    }

    private void requireOpen() throws TransportUnavailableException {
        if (this.state != State.OPEN) {
            throw new TransportUnavailableException("The DDS transport of node " + this.node + " is "
                    + (this.state == State.NEW ? "not open yet" : "closed"), null);
        }
    }

    @Override
    public String toString() {
        return "DdsTransport[" + this.node + ", domain " + this.settings.participant().domainId() + ", "
                + this.state.name().toLowerCase(Locale.ROOT) + "]";
    }
}

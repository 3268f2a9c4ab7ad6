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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
import kr.c4i.gateway.core.transport.TransportBusyException;
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
 * <p>Under DDS Security, a remote participant whose authentication handshake with this one failed and that still
 * announces itself stays unmatched, because Cyclone 0.10 never tries the handshake again. The transport then
 * recreates its participant, with the same topics, writers and readers, when
 * {@link DdsTransportSettings#handshakeRecovery()} says: a new participant handshakes with every remote one afresh.
 * What the old writers held and no reader receipted is sent again by the origin's receipt protocol (the bridge's
 * outbox, the WAN gateway's LAN side), as after a restart; a {@code send} while the participants are swapped fails
 * as retryable.
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
    private final ParticipantRecreation recreation;
    private final LongAdder recreated = new LongAdder();
    private final LongAdder announced = new LongAdder();
    private volatile @Nullable Recreated lastRecreated;
    private volatile State state = State.NEW;
    // Set by open() and replaced whole by a recreation; the handlers by onReceipts and subscribe. Null until then.
    private volatile @Nullable Generation current;
    private @Nullable ReceiptHandler receiptHandler;
    private @Nullable InboundHandler inboundHandler;
    // The handshake check and the start announcements; null when neither is on.
    private @Nullable ScheduledExecutorService timers;
    private Duration openTime = Duration.ZERO;

    private enum State {
        NEW, OPEN, CLOSED
    }

    /** A type's topic and writer; {@code seq} numbers this writer's samples from 1. */
    private record Channel(MessageType type, DataWriter<KmtfMessageSample> writer, AtomicLong seq) {
    }

    /**
     * One participant and what the transport made in it: a writer per type, the receipt topic, the readers of the
     * handlers registered, and the receive loop over them. Whoever takes it out of {@code current} closes it, once:
     * {@link #close} or the recreation that replaced it. {@code carried} holds the counts of the generations before,
     * so the transport's counters never go back.
     */
    private static final class Generation {

        final DomainParticipant participant;
        final Map<String, Channel> channels;
        final Topic<KmtfReceiptSample> receiptTopic;
        final ReceiveLoop receiveLoop;
        volatile @Nullable Thread receiveThread;
        Counts carried = Counts.NONE;
        // Set on the timer thread once the participant matched another node: start announcements end there.
        volatile boolean foundPeer;

        Generation(DomainParticipant participant, Map<String, Channel> channels,
                Topic<KmtfReceiptSample> receiptTopic, ReceiveLoop receiveLoop) {
            this.participant = participant;
            this.channels = Collections.unmodifiableMap(channels);
            this.receiptTopic = receiptTopic;
            this.receiveLoop = receiveLoop;
        }
    }

    /** What a participant's readers and its domain's security counted. */
    private record Counts(long lost, long rejected, long undecodable, long bestEffortLost, long bestEffortRejected,
            SecurityRefusals refused) {

        static final Counts NONE = new Counts(0, 0, 0, 0, 0, SecurityRefusals.NONE);

        Counts plus(Counts other) {
            return new Counts(this.lost + other.lost, this.rejected + other.rejected,
                    this.undecodable + other.undecodable, this.bestEffortLost + other.bestEffortLost,
                    this.bestEffortRejected + other.bestEffortRejected, this.refused.plus(other.refused));
        }
    }

    /** The last recreation: when, and the remote participants whose failed handshakes caused it. */
    private record Recreated(Instant at, Set<String> remotes) {
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
        this.recreation = new ParticipantRecreation(settings.handshakeRecovery());
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
     * Joins the domain and creates a topic and a writer for every catalogue type, plus the receipt topic. Under DDS
     * Security with {@link DdsTransportSettings#handshakeRecovery()} enabled, starts checking for failed handshakes.
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
        Generation generation = build();
        this.current = generation;
        startReceiving(generation);
        this.openTime = Duration.ofNanos(System.nanoTime() - start);
        this.state = State.OPEN;
        boolean checkHandshakes = secured() && this.settings.handshakeRecovery().enabled();
        if (checkHandshakes || this.settings.startAnnouncements().count() > 0) {
            ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1,
                    Thread.ofPlatform().daemon().name("dds-timers-" + this.node).factory());
            // Closing lets a recreation in progress finish, and drops what is not due yet.
            timers.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            if (checkHandshakes) {
                long tick = Math.clamp(this.settings.handshakeRecovery().delay().toMillis() / 4, 50, 1_000);
                timers.scheduleWithFixedDelay(this::checkHandshakes, tick, tick, TimeUnit.MILLISECONDS);
            }
            this.timers = timers;
        }
        scheduleStartAnnouncements(generation);
        log.info("DDS transport of node {} opened in domain {} through {}: {} topics and writers in {} ms",
                this.node, generation.participant.domainId(), generation.participant.bindingName(),
                generation.channels.size(), this.openTime.toMillis());
    }

    /**
     * A participant with a topic and a writer per type, the receipt topic, and the readers of the handlers
     * registered so far; its receive loop is not started.
     */
    private Generation build() throws TransportUnavailableException {
        DomainParticipant participant;
        try {
            participant = DomainParticipant.create(this.settings.participant());
        }
        catch (IllegalStateException | DdsException ex) {
            throw new TransportUnavailableException("Unable to join DDS domain " + this.settings.participant()
                    .domainId() + ": " + ex.getMessage(), ex);
        }
        try {
            Map<String, Channel> channels = new LinkedHashMap<>();
            for (MessageType type : this.catalogue.types()) {
                Topic<KmtfMessageSample> topic = participant.createTopic(type.topicName(), KmtfTypes.MESSAGE);
                Qos qos = TopicQos.writer(type, this.settings.writeTimeout());
                if (secured()) {
                    qos = qos.withPartitions(origins().stream().map(SecurePartitions::messages).toList());
                }
                channels.put(type.id(), new Channel(type, participant.createWriter(topic, qos), new AtomicLong()));
            }
            Topic<KmtfReceiptSample> receiptTopic = participant.createTopic(this.settings.receiptsTopic(),
                    KmtfTypes.RECEIPT);
            Generation generation = new Generation(participant, channels, receiptTopic, new ReceiveLoop(this.node,
                    participant, receiptTopic, this.settings, this.counters, this.relaying));
            if (this.receiptHandler != null) {
                attachReceiptReader(generation, this.receiptHandler);
            }
            if (this.inboundHandler != null) {
                subscribe(generation, this.inboundHandler);
            }
            return generation;
        }
        catch (RuntimeException ex) {
            participant.close();
            throw new TransportUnavailableException("Unable to create the KMTF topics in DDS domain "
                    + participant.domainId() + ": " + ex.getMessage(), ex);
        }
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
        Generation generation = this.current;
        if (this.state == State.OPEN && generation != null) {
            attachReceiptReader(generation, handler);
            startReceiving(generation);
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

    private void attachReceiptReader(Generation generation, ReceiptHandler handler) {
        Set<NodeId> origins = origins();
        Qos qos = TopicQos.receipts(origins, this.settings.writeTimeout());
        if (secured()) {
            qos = qos.withPartitions(origins.stream().map(SecurePartitions::receiptsFor).toList());
        }
        DataReader<KmtfReceiptSample> reader = generation.participant.createReader(generation.receiptTopic, qos);
        generation.receiveLoop.onReceipts(handler, reader);
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
        if (this.inboundHandler != null) {
            throw new IllegalStateException("The DDS transport of node " + this.node + " already has a handler");
        }
        Generation generation = this.current;
        try {
            subscribe(generation, handler);
        }
        catch (RuntimeException ex) {
            throw new TransportUnavailableException("Unable to subscribe node " + this.node + " to "
                    + this.subscribedTypes.size() + " DDS topics: " + ex.getMessage(), ex);
        }
        this.inboundHandler = handler;
        this.ownReaders.addAll(this.subscribedTypes);
        startReceiving(generation);
    }

    private void subscribe(Generation generation, InboundHandler handler) {
        Map<MessageType, DataReader<KmtfMessageSample>> readers = new LinkedHashMap<>();
        try {
            for (String id : this.subscribedTypes) {
                Channel channel = generation.channels.get(id);
                Qos qos = TopicQos.reader(channel.type(), this.settings.bestEffortBacklog());
                if (secured()) {
                    qos = qos.withPartitions(List.of(SecurePartitions.ALL_ORIGINS));
                }
                readers.put(channel.type(), generation.participant.createReader(channel.writer().topic(), qos));
            }
            generation.receiveLoop.subscribe(handler, readers);
        }
        catch (RuntimeException ex) {
            readers.values().forEach(DataReader::close);
            throw ex;
        }
    }

    /** Starts the generation's receive thread once it has a reader to serve. */
    private void startReceiving(Generation generation) {
        if (generation.receiveThread == null && (this.receiptHandler != null || this.inboundHandler != null)) {
            generation.receiveThread = Thread.ofPlatform().daemon().name("dds-receive-" + this.node)
                    .start(generation.receiveLoop);
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
     * @throws TransportBusyException if a RELIABLE writer stayed full for the write timeout (readers not keeping
     *         up): what was written before it is sent, and named by {@link TransportBusyException#taken()}
     * @throws TransportUnavailableException if the transport is not open
     */
    @Override
    public void send(List<Outbound> batch) throws TransportException {
        Generation generation = requireOpen();
        Map<String, Channel> channels = generation.channels;
        List<Channel> targets = new ArrayList<>(batch.size());
        List<KmtfMessageSample> samples = new ArrayList<>(batch.size());
        long now = EnvelopeMapper.epochNanos(Instant.now());
        for (Outbound outbound : batch) {
            String id = outbound.envelope().messageId();
            Channel channel = channels.get(outbound.type().id());
            if (channel == null) {
                throw new MessageRejectedException(id, "Message " + id + " has type " + outbound.type().id()
                        + ", which is not in the catalogue this DDS transport was opened with ("
                        + channels.size() + " types)", null);
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
                try {
                    write(channel, samples.get(i).withSeq(channel.seq().incrementAndGet()));
                }
                catch (TransportBusyException busy) {
                    throw new TransportBusyException(busy.getMessage(), busy.getCause(), batch.subList(0, i).stream()
                            .map(outbound -> outbound.envelope().messageId()).toList());
                }
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
        Generation generation = this.current;
        if (this.state != State.OPEN || generation == null) {
            return missing;
        }
        this.expectedReaders.forEach((type, readers) -> {
            Channel channel = generation.channels.get(type);
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
            throw new TransportBusyException("DDS writer on " + channel.type().topicName() + " stayed full for "
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
        Generation generation = this.current;
        Counts counts = generation == null ? Counts.NONE : generation.carried;
        Map<String, Integer> matched = new TreeMap<>();
        if (this.state == State.OPEN && generation != null) {
            try {
                counts = counts.plus(counts(generation));
                generation.channels.values().forEach(c -> matched.put(c.type().topicName(),
                        c.writer().status().matchedReaders()));
            }
            catch (IllegalStateException | DdsException ex) {
                log.debug("DDS statistics incomplete: {}", ex.getMessage());
            }
        }
        return new DdsTransportStats(this.written.sum(), this.counters.received.sum(), counts.lost(),
                counts.rejected(), this.counters.invalid.sum() + counts.undecodable(), this.counters.batches.sum(),
                this.counters.deliveryFailures.sum(), this.counters.receiptsSent.sum(),
                this.counters.receiptsReceived.sum(), this.counters.receiptFailures.sum(), matched,
                this.unmatched.sum(), counts.bestEffortLost(), counts.bestEffortRejected(),
                this.counters.forgedOrigins.sum(), this.counters.forgedReceipts.sum(), counts.refused(),
                this.recreated.sum());
    }

    /** What the generation's readers and its participant's domain counted so far. */
    private static Counts counts(Generation generation) {
        long lost = 0;
        long rejected = 0;
        long undecodable = 0;
        long bestEffortLost = 0;
        long bestEffortRejected = 0;
        for (Map.Entry<MessageType, DataReader<KmtfMessageSample>> entry : generation.receiveLoop.readersByType()
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
        return new Counts(lost, rejected, undecodable, bestEffortLost, bestEffortRejected,
                generation.participant.securityRefusals());
    }

    /**
     * The generation's {@link DdsTransportSettings.StartAnnouncements}: one every interval from now, while the
     * generation is the current one.
     */
    private void scheduleStartAnnouncements(Generation generation) {
        DdsTransportSettings.StartAnnouncements start = this.settings.startAnnouncements();
        ScheduledExecutorService scheduler = this.timers;
        if (scheduler == null || start.count() == 0) {
            return;
        }
        long interval = start.interval().toNanos();
        for (int i = 1; i <= start.count(); i++) {
            scheduler.schedule(() -> announce(generation), i * interval, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Announces the generation's participant, unless it was replaced or closed meanwhile, or has found another node
     * already (then they found each other, and a peer still away finds it at the next periodic announcement); runs
     * on the timer.
     */
    private void announce(Generation generation) {
        if (this.state != State.OPEN || this.current != generation || generation.foundPeer) {
            return;
        }
        try {
            if (matchesAnotherNode(generation)) {
                generation.foundPeer = true;
                return;
            }
            generation.participant.announce();
            this.announced.increment();
        }
        catch (IllegalStateException | DdsException ex) {
            // Closed meanwhile, or the binding refused: the periodic announcements go on regardless.
            log.debug("DDS participant of node {} not announced: {}", this.node, ex.getMessage());
        }
    }

    /**
     * Whether a writer of the generation matches a reader of another node, or a reader a writer of another node:
     * every type has a writer here, so each reader's own match is not another node's.
     */
    private boolean matchesAnotherNode(Generation generation) {
        for (Channel channel : generation.channels.values()) {
            if (remoteReaders(channel) > 0) {
                return true;
            }
        }
        for (DataReader<KmtfMessageSample> reader : generation.receiveLoop.readersByType().values()) {
            if (reader.status().matchedWriters() > 1) {
                return true;
            }
        }
        return false;
    }

    /** Announcements the transport added to the binding's periodic ones since {@link #open}. */
    public long startAnnouncementsSent() {
        return this.announced.sum();
    }

    /** Recreates the participant once a handshake failure has lasted its wait; runs on the handshake check thread. */
    private void checkHandshakes() {
        Generation generation = this.current;
        if (this.state != State.OPEN || generation == null) {
            return;
        }
        try {
            Set<String> due = this.recreation.due(System.nanoTime(), generation.participant.failedHandshakes());
            if (!due.isEmpty()) {
                recreate(due);
            }
        }
        catch (TransportUnavailableException ex) {
            log.error("Unable to recreate the DDS participant of node {}; it keeps the old one, and tries again "
                    + "once the wait is over: {}", this.node, ex.getMessage(), ex);
        }
        catch (IllegalStateException | DdsException ex) {
            // Closed meanwhile.
            log.debug("DDS handshake check of node {} skipped: {}", this.node, ex.getMessage());
        }
        catch (RuntimeException ex) {
            log.warn("DDS handshake check of node {} failed; checking again", this.node, ex);
        }
    }

    /**
     * Replaces the participant by a new one with the same topics, writers and readers, then closes the old one. The
     * new one exists before the old one goes, so the domain, and whatever else of this process is in it, stays.
     *
     * @param remotes the remote participants whose failed handshakes with the old participant caused it
     * @throws TransportUnavailableException if the new participant cannot be made; the old one stays
     */
    void recreate(Set<String> remotes) throws TransportUnavailableException {
        Generation old;
        synchronized (this) {
            old = this.current;
            if (this.state != State.OPEN || old == null) {
                return;
            }
            this.recreation.recreating(System.nanoTime(), remotes);
            // Read before the new participant joins, so no refusal is counted by both; what the old readers count
            // from here until they close is not carried.
            Counts carried = old.carried.plus(counts(old));
            Generation fresh = build();
            fresh.carried = carried;
            startReceiving(fresh);
            this.current = fresh;
            scheduleStartAnnouncements(fresh);
        }
        this.recreated.increment();
        this.lastRecreated = new Recreated(Instant.now(), remotes);
        log.warn("DDS participant of node {} recreated (#{}): its DDS Security handshake with remote participant {} "
                + "failed, and Cyclone never tries again while both exist; the new participant handshakes with every "
                + "remote participant afresh (should it fail with the same one, the next recreation waits {} s)",
                this.node, this.recreated.sum(), String.join(", ", remotes),
                this.recreation.wait(remotes.iterator().next()).toSeconds());
        retire(old);
    }

    /** {@link DdsTransportStats#participantsRecreated()} alone, without reading any status. */
    public long participantsRecreated() {
        return this.recreated.sum();
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
        Generation generation = this.current;
        if (this.state != State.OPEN || generation == null) {
            return TransportHealth.down(details);
        }
        boolean participantAlive = generation.participant.isAlive();
        Thread thread = generation.receiveThread;
        boolean receiving = thread == null || thread.isAlive();
        DdsTransportStats stats = stats();
        details.put("binding", generation.participant.bindingName());
        details.put("participantAlive", participantAlive);
        details.put("receiveThreadAlive", receiving);
        details.put("topics", generation.channels.size());
        details.put("readers", generation.receiveLoop.readersByType().size());
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
        if (secured()) {
            handshakeDetails(generation, details);
        }
        return participantAlive && receiving ? TransportHealth.up(details) : TransportHealth.down(details);
    }

    /**
     * {@code participantsRecreated}, {@code lastRecreated} and, while there are any, {@code failedHandshakes}: each
     * remote participant whose handshake with this one failed, and what becomes of it.
     */
    private void handshakeDetails(Generation generation, Map<String, Object> details) {
        details.put("participantsRecreated", this.recreated.sum());
        Recreated last = this.lastRecreated;
        if (last != null) {
            details.put("lastRecreated", last.at() + " for " + String.join(", ", last.remotes()));
        }
        Set<String> failed;
        try {
            failed = generation.participant.failedHandshakes();
        }
        catch (IllegalStateException ex) {
            // Replaced meanwhile.
            return;
        }
        if (failed.isEmpty()) {
            return;
        }
        Map<String, Duration> pending = this.recreation.pending(System.nanoTime());
        Map<String, String> states = new TreeMap<>();
        for (String remote : failed) {
            Duration left = pending.getOrDefault(remote, this.recreation.wait(remote));
            states.put(remote, this.settings.handshakeRecovery().enabled()
                    ? "participant recreated in " + Math.max(1, left.toSeconds()) + " s"
                    : "unmatched until either side restarts (handshake recovery is off)");
        }
        details.put("failedHandshakes", states);
    }

    /**
     * Stops the handshake check and the receive thread (waiting for a handler call in progress), then deletes every
     * DDS entity. Messages in writer histories that no reader acknowledged yet are dropped; the receipt protocol
     * resends them.
     */
    @Override
    public void close() {
        Generation generation;
        ScheduledExecutorService check;
        synchronized (this) {
            if (this.state == State.CLOSED) {
                return;
            }
            boolean wasOpen = this.state == State.OPEN;
            this.state = State.CLOSED;
            if (!wasOpen) {
                return;
            }
            generation = this.current;
            check = this.timers;
        }
        if (check != null) {
            // A recreation in progress finishes, and closes the participant it replaced; announcements not yet due
            // are dropped.
            check.shutdown();
            try {
                if (!check.awaitTermination(this.settings.writeTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
                    log.warn("DDS timers (handshake check) of node {} did not stop", this.node);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        retire(generation);
        log.info("DDS transport of node {} closed", this.node);
    }

    /** Stops the generation's receive thread, waiting for a handler call in progress, and closes its participant. */
    private void retire(Generation generation) {
        generation.receiveLoop.stop();
        Thread thread = generation.receiveThread;
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
        generation.participant.close();
    }

    private Generation requireOpen() throws TransportUnavailableException {
        Generation generation = this.current;
        if (this.state != State.OPEN || generation == null) {
            throw new TransportUnavailableException("The DDS transport of node " + this.node + " is "
                    + (this.state == State.NEW ? "not open yet" : "closed"), null);
        }
        return generation;
    }

    @Override
    public String toString() {
        return "DdsTransport[" + this.node + ", domain " + this.settings.participant().domainId() + ", "
                + this.state.name().toLowerCase(Locale.ROOT) + "]";
    }
}

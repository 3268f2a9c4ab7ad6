package kr.c4i.gateway.wan.relay;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.Frame;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameFormatException;
import kr.c4i.gateway.wan.frame.ReceiptFrame;
import kr.c4i.gateway.wan.lan.LanIngest;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.metrics.RelayMetrics.Direction;
import kr.c4i.gateway.wan.policy.DropReason;
import kr.c4i.gateway.wan.policy.PolicyDecision;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.schedule.LinkPacer;
import kr.c4i.gateway.wan.schedule.NanoClock;
import kr.c4i.gateway.wan.schedule.PrecedenceScheduler;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.Acceptance;
import kr.c4i.gateway.wan.store.Copy;
import kr.c4i.gateway.wan.store.ForwardedStep;
import kr.c4i.gateway.wan.store.Outcome;
import kr.c4i.gateway.wan.store.RelayQuarantine;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;

/**
 * The relay between this site's LAN and its peer sites, custody at every step:
 * <ul>
 * <li>LAN in: what this site's nodes send to nodes at other sites is checked against the relay policy, split by
 * next hop and stored durably before the LAN side acknowledges it;</li>
 * <li>WAN out: one sender per peer site sends the stored copies in DATA frames, precedence first, paced to the WAN
 * budget; a copy leaves the store when the peer receipts its frame;</li>
 * <li>WAN in: a DATA frame from a peer is stored (for this site's nodes and for sites further on) before it is
 * receipted; a message that has crossed this site already is dropped as a loop;</li>
 * <li>LAN out: what is stored for this site's nodes goes to the LAN side, FLASH first, and leaves the store once the
 * nodes have it.</li>
 * </ul>
 * A message never crosses the WAN to a site, nor through a next hop, whose clearance its classification exceeds, and
 * is stored for this site's LAN only if a destination node here is cleared for it; each refusal is dropped as
 * {@link DropReason#CLEARANCE} and counted per destination.
 *
 * <p>Where it takes custody (LAN in, WAN in), the engine adds this site's hop to the message's trace,
 * {@code site <this site> relayed} at the time it took the message, before storing it ({@link #stamped}): the copies
 * keep the trace as stamped then, go out over the WAN and onto the LAN with it, and a copy offered again (a
 * redelivery, a resend) is absorbed by the store with the trace stored first.
 *
 * <p>A message newly in the store, from this site's LAN or from a peer site, has its span ({@link MessageTracing}),
 * linked to its creation context.
 */
public final class RelayEngine implements LanIngest, FrameHandler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelayEngine.class);

    /** The quarantine's reason for a forwarded custody step that does not read as one. */
    static final String INVALID_CUSTODY_STEP = "invalid-custody-step";

    /** The most link time one DATA frame fills, when the link is fast enough to fill more than the frame target. */
    static final Duration FRAME_TIME = Duration.ofMillis(10);

    /**
     * How much link time a sender lets wait in the link's own queue ({@link WanLink#queuedBytes}), at least two
     * frames: enough that the link never idles between two hand-overs, little enough that a FLASH frame handed over
     * next waits behind no more. The credit ({@link Settings#window}) bounds what is in flight; this bounds what of
     * it has not even left yet, which grows on a link that spends part of its rate on repair.
     */
    static final Duration LINK_QUEUE = Duration.ofMillis(50);

    /**
     * DATA frames this large or larger, which carry {@link #FRAME_TIME} of a budget over about 13 Mbit/s, are
     * compressed with the least CPU ({@link FrameCodec#fastest()}): on such a link the relay's CPU per message limits
     * it before the link's bytes do. Narrower links, whose frames are smaller, get the fewest bytes.
     */
    static final int FAST_LINK_FRAME_BYTES = 16 * 1024;

    /**
     * How the engine paces, batches and waits.
     *
     * @param frameTargetBytes the size DATA frames are filled to at least: what one datagram of the link carries
     *        (a fast link's frames carry {@link #FRAME_TIME} of its budget)
     * @param receiptTimeout how long a DATA frame may go unreceipted before its messages are sent again, once the
     *        peer receipted a later frame, or has receipted none for as long and the link has delivered all it held
     * @param budgetBitsPerSecond the WAN budget per peer site
     * @param burstBytes how far a sender may run ahead of the budget: about one frame (at least one frame)
     * @param window the credit as link time: bytes in flight to a peer stay under budget × window
     * @param floor the share each lower precedence gets at least while higher ones keep the link busy
     * @param quantumBytes the round-robin quantum across types within a precedence
     * @param lanBatchBytes the most bytes handed to the LAN side at once
     */
    public record Settings(int frameTargetBytes, Duration receiptTimeout, long budgetBitsPerSecond, int burstBytes,
            Duration window, double floor, int quantumBytes, int lanBatchBytes) {
    }

    private final SiteMap sites;
    private final SiteRoutes routes;
    private final RoutingTable routing;
    private final KmtfCatalogue catalogue;
    private final RelayStore store;
    private final Supplier<RelayPolicy> policy;
    private final WanLink link;
    private final LanSide lan;
    private final FrameCodec codec;
    private final RelayMetrics metrics;
    private final Settings settings;
    private final SiteId self;
    private final Clock clock;
    private final MessageTracing tracing;
    private final long epoch = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private final Map<SiteId, PeerSender> senders = new LinkedHashMap<>();
    private final LanDeliverer deliverer;
    private final CustodyForwarder forwarder;
    private final List<Thread> threads = new ArrayList<>();
    // Refusals and unroutable messages so far: each is counted in the metrics, logged at powers of two.
    private final AtomicLong refusedForClearance = new AtomicLong();
    private final AtomicLong unroutableMessages = new AtomicLong();
    private volatile boolean started;

    public RelayEngine(SiteMap sites, SiteRoutes routes, RoutingTable routing, KmtfCatalogue catalogue,
            RelayStore store, Supplier<RelayPolicy> policy, ExpiryRule expiry, WanLink link, LanSide lan,
            FrameCodec codec, RelayMetrics metrics, Settings settings, Clock clock) {
        this(sites, routes, routing, catalogue, store, policy, expiry, link, lan, codec, metrics, settings, clock,
                MessageTracing.off());
    }

    public RelayEngine(SiteMap sites, SiteRoutes routes, RoutingTable routing, KmtfCatalogue catalogue,
            RelayStore store, Supplier<RelayPolicy> policy, ExpiryRule expiry, WanLink link, LanSide lan,
            FrameCodec codec, RelayMetrics metrics, Settings settings, Clock clock, MessageTracing tracing) {
        this.sites = sites;
        this.routes = routes;
        this.routing = routing;
        this.catalogue = catalogue;
        this.store = store;
        this.policy = policy;
        this.link = link;
        this.lan = lan;
        this.codec = codec;
        this.metrics = metrics;
        this.settings = settings;
        this.self = sites.thisSite();
        this.clock = clock;
        this.tracing = tracing;
        NanoClock nanos = System::nanoTime;
        int frameBytes = frameBytes(settings, link.maxFrameBytes());
        int burstBytes = Math.max(settings.burstBytes(), frameBytes);
        for (SiteId peer : routes.peers()) {
            var backlog = store.backlog(Route.peer(peer));
            senders.put(peer, new PeerSender(peer, link, store, backlog,
                    new PrecedenceScheduler(backlog, settings.floor(), settings.quantumBytes(), expiry, clock),
                    new LinkPacer(settings.budgetBitsPerSecond(), burstBytes, settings.window(), nanos),
                    codecFor(codec, frameBytes), metrics, epoch, settings.receiptTimeout(), frameBytes,
                    linkQueueBytes(settings.budgetBitsPerSecond(), frameBytes)));
        }
        var lanBacklog = store.backlog(Route.lan());
        this.deliverer = new LanDeliverer(self, lan, store, lanBacklog,
                new PrecedenceScheduler(lanBacklog, settings.floor(), settings.quantumBytes(), expiry, clock),
                metrics, clock, settings.lanBatchBytes(), LanDeliverer.MAX_PENDING, LanDeliverer.IDLE);
        this.forwarder = new CustodyForwarder(store.forwardedCustody(), this::forward,
                ForwardedStep.maxIdBytes(link.maxFrameBytes()));
    }

    /**
     * The size DATA frames are filled to: the frame target, or on a fast link what it carries in
     * {@link #FRAME_TIME}, up to the link's largest frame. Every frame costs a commit at the peer, so a fast link
     * needs large frames to carry its budget; a frame of that much link time is all a FLASH message waits behind.
     * A frame target larger than the link's largest frame is kept as it is, so the packer refuses it at start.
     */
    static int frameBytes(Settings settings, int linkMaxFrameBytes) {
        long linkTime = settings.budgetBitsPerSecond() / 8 * FRAME_TIME.toMillis() / 1000;
        return (int) Math.max(settings.frameTargetBytes(), Math.min(linkMaxFrameBytes, linkTime));
    }

    /** How DATA frames of this size are written: {@link FrameCodec#fastest()} from {@link #FAST_LINK_FRAME_BYTES}. */
    static FrameCodec codecFor(FrameCodec codec, int frameBytes) {
        return frameBytes >= FAST_LINK_FRAME_BYTES ? codec.fastest() : codec;
    }

    /** The most a sender lets wait in the link's queue: {@link #LINK_QUEUE} of the budget, at least two frames. */
    static long linkQueueBytes(long budgetBitsPerSecond, int frameBytes) {
        return Math.max(2L * frameBytes, budgetBitsPerSecond / 8 * LINK_QUEUE.toMillis() / 1000);
    }

    /**
     * Starts what the link and the LAN side run while this gateway is the standby of a pair (their brokers of
     * primary/backup pairs); {@link #start} opens the rest once it leads.
     */
    public synchronized void standBy() throws TransportException {
        link.standBy();
        lan.standBy();
    }

    /** Opens the link and the LAN side and starts the senders and the LAN deliverer. */
    public synchronized void start() throws TransportException {
        if (started) {
            return;
        }
        link.open(this);
        lan.open(this);
        senders.values().forEach(s -> threads.add(Thread.ofPlatform().name("wan-send-" + s.peer()).start(s)));
        threads.add(Thread.ofPlatform().name("wan-lan-deliver").start(deliverer));
        threads.add(Thread.ofPlatform().name("wan-custody-forward").start(forwarder));
        started = true;
        log.info("WAN gateway of site {} relaying over the {} link to {} (epoch {})", self, link.kind(),
                routes.peers(), Long.toHexString(epoch));
    }

    public SiteId site() {
        return self;
    }

    public WanLink link() {
        return link;
    }

    public LanSide lan() {
        return lan;
    }

    public RelayStore store() {
        return store;
    }

    /** Bytes sent to the peer and not yet receipted; 0 for a site that is not a peer. */
    public long inFlightBytes(SiteId peer) {
        PeerSender sender = senders.get(peer);
        return sender == null ? 0 : sender.inFlightBytes();
    }

    /** The most that may be sent to the peer and not yet receipted (the credit); 0 for a site that is not a peer. */
    public long creditBytes(SiteId peer) {
        PeerSender sender = senders.get(peer);
        return sender == null ? 0 : sender.creditBytes();
    }

    // LAN in -------------------------------------------------------------------------------------------------

    @Override
    public Set<String> ingest(List<Envelope> batch) throws SQLException {
        MessageTracing.Receiving receiving = tracing.receiving(lan.kind());
        Set<String> handled = new HashSet<>();
        List<Copy> copies = new ArrayList<>();
        List<Envelope> owners = new ArrayList<>();
        List<Envelope> unknown = new ArrayList<>();
        RelayPolicy current = policy.get();
        Instant now = clock.instant();
        CustodyLog.Entries unstored = store.steps();
        for (Envelope envelope : batch) {
            Optional<MessageType> type = catalogue.find(envelope.kmtfType());
            if (type.isEmpty()) {
                unknown.add(envelope);
                continue;
            }
            PolicyDecision decision = current.decide(envelope, type.get());
            if (decision instanceof PolicyDecision.Drop drop) {
                metrics.dropped(drop.reason().label(), envelope);
                unstored.add(CustodyEvent.DROPPED, envelope.messageId(), RelayStore.LAN_LINK, List.of(), envelope.precedence(),
                        "policy: " + drop.reason().label(), envelope.origin());
                handled.add(envelope.messageId());
                continue;
            }
            String supersedeKey = ((PolicyDecision.Relay) decision).supersedeKey();
            Envelope taken = stamped(envelope, self, now);
            Set<NodeId> remote = sites.remoteOf(routing.destinations(type.get().id(), envelope.origin()));
            List<SiteId> crossed = List.of(self);
            int before = copies.size();
            split(taken, crossed, sites.sitesOf(remote), supersedeKey, copies, unstored);
            if (copies.size() == before) {
                handled.add(envelope.messageId());
            }
            while (owners.size() < copies.size()) {
                owners.add(taken);
            }
        }
        // Before any of them is acknowledged: a failure here leaves the batch to come again, and be refused again.
        store.log(unstored);
        if (!unknown.isEmpty()) {
            // Kept, not dropped: acknowledged only once the quarantine has them, so a failure loses nothing.
            try {
                Set<String> kept = store.quarantine().keep(unknown, RelayQuarantine.UNKNOWN_TYPE);
                for (Envelope envelope : unknown) {
                    if (handled.add(envelope.messageId()) && kept.contains(envelope.messageId())) {
                        log.warn("Message {} from {} has type {}, which the catalogue does not define: not relayed, "
                                + "kept in relay_quarantine", envelope.messageId(), envelope.origin(),
                                envelope.kmtfType());
                        metrics.quarantined(RelayQuarantine.UNKNOWN_TYPE, envelope);
                    }
                }
            }
            catch (SQLException ex) {
                log.warn("Unable to quarantine {} messages of types the catalogue does not define: {}; "
                        + "not acknowledged, so they come again", unknown.size(), ex.getMessage());
            }
        }
        if (copies.isEmpty()) {
            return handled;
        }
        List<Acceptance> outcomes = store.accept(copies);
        Map<String, Boolean> taken = new HashMap<>();
        Set<SiteId> woken = new HashSet<>();
        for (int i = 0; i < copies.size(); i++) {
            Envelope envelope = owners.get(i);
            boolean receipted = outcomes.get(i).outcome().receipted();
            taken.merge(envelope.messageId(), receipted, Boolean::logicalAnd);
            count(outcomes.get(i), copies.get(i), envelope, self, Direction.LAN_IN);
            if (outcomes.get(i).outcome() == Outcome.STORED) {
                receiving.stored(envelope);
            }
            if (copies.get(i).route() instanceof Route.Peer(SiteId peer)) {
                woken.add(peer);
            }
        }
        taken.forEach((id, ok) -> {
            if (ok) {
                handled.add(id);
            }
        });
        woken.forEach(p -> senders.get(p).wake());
        return handled;
    }

    @Override
    public void delivered(Set<String> messageIds) {
        deliverer.delivered(messageIds);
    }

    // WAN in --------------------------------------------------------------------------------------------------

    @Override
    public void received(SiteId from, byte[] bytes) {
        received(List.of(new ReceivedFrame(from, bytes)));
    }

    /**
     * Receipts go to their senders at once; the messages of all DATA frames are stored in one transaction, and each
     * frame whose messages are all taken care of is owed a receipt.
     */
    @Override
    public void received(List<ReceivedFrame> frames) {
        List<Received> data = new ArrayList<>(frames.size());
        for (ReceivedFrame received : frames) {
            SiteId from = received.from();
            byte[] bytes = received.bytes();
            PeerSender peer = senders.get(from);
            if (peer == null) {
                log.warn("Frame from site {}, which is not a peer of this gateway {}: ignored", from, routes.peers());
                metrics.frameRejected(from);
                continue;
            }
            Frame frame;
            try {
                frame = codec.decode(bytes);
            }
            catch (FrameFormatException ex) {
                log.warn("Unreadable frame of {} bytes from site {}: {}", bytes.length, from, ex.getMessage());
                metrics.frameRejected(from);
                continue;
            }
            switch (frame) {
                case ReceiptFrame receipt -> {
                    metrics.frame(from, false, false, bytes.length);
                    peer.receipted(receipt.epoch(), receipt.seqs());
                }
                case DataFrame dataFrame -> {
                    metrics.frame(from, false, true, bytes.length);
                    data.add(new Received(from, peer, dataFrame));
                    if (log.isDebugEnabled() && dataFrame.envelopes().stream()
                            .anyMatch(e -> e.envelope().precedence() == Precedence.FLASH)) {
                        log.debug("Frame {} from site {} carries FLASH: arrived", dataFrame.seq(), from);
                    }
                }
            }
        }
        if (!data.isEmpty()) {
            store(data);
        }
    }

    /** A DATA frame from a peer: whom to receipt it to. */
    private record Received(SiteId from, PeerSender peer, DataFrame frame) {
    }

    /** Stores the messages of DATA frames in one transaction and owes a receipt for each frame wholly taken. */
    private void store(List<Received> frames) {
        MessageTracing.Receiving receiving = tracing.receiving(link.kind());
        List<Copy> copies = new ArrayList<>();
        List<Envelope> owners = new ArrayList<>();
        List<Integer> frameOf = new ArrayList<>();
        Instant now = clock.instant();
        CustodyLog.Entries unstored = store.steps();
        List<Envelope> steps = new ArrayList<>();
        List<Integer> stepFrames = new ArrayList<>();
        for (int f = 0; f < frames.size(); f++) {
            for (RelayedEnvelope relayed : frames.get(f).frame().envelopes()) {
                if (relayed.hasCrossed(self)) {
                    metrics.dropped("loop", relayed.envelope());
                    continue;
                }
                boolean step = ForwardedStep.TYPE.equals(relayed.envelope().kmtfType());
                Envelope envelope = step ? relayed.envelope() : stamped(relayed.envelope(), self, now);
                List<SiteId> crossed = new ArrayList<>(relayed.crossed());
                crossed.add(self);
                if (step && relayed.boundFor().contains(self)) {
                    steps.add(envelope);
                    stepFrames.add(f);
                }
                else if (relayed.boundFor().contains(self) && clearedHere(envelope, unstored)) {
                    copies.add(Copy.of(Route.lan(),
                            new RelayedEnvelope(envelope, crossed, new TreeSet<>(Set.of(self)))));
                }
                Set<SiteId> further = new TreeSet<>(relayed.boundFor());
                further.remove(self);
                split(envelope, crossed, further, null, copies, step ? null : unstored);
                while (owners.size() < copies.size()) {
                    owners.add(envelope);
                    frameOf.add(f);
                }
            }
        }
        try {
            store.log(unstored);
        }
        catch (SQLException ex) {
            log.warn("Unable to log the refusals and drops of {} frames from {}: {}; they come again", frames.size(),
                    frames.stream().map(Received::from).distinct().toList(), ex.getMessage());
            return;
        }
        boolean[] owed = new boolean[frames.size()];
        Arrays.fill(owed, true);
        if (!recordSteps(steps, stepFrames.stream().map(f -> frames.get(f).from()).toList())) {
            stepFrames.forEach(f -> owed[f] = false);
        }
        if (!copies.isEmpty()) {
            List<Acceptance> outcomes;
            try {
                outcomes = store.accept(copies);
            }
            catch (SQLException ex) {
                log.warn("Unable to store {} frames of {} messages from {}: {}; they come again", frames.size(),
                        copies.size(), frames.stream().map(Received::from).distinct().toList(), ex.getMessage());
                return;
            }
            boolean lanWork = false;
            Set<SiteId> woken = new HashSet<>();
            for (int i = 0; i < copies.size(); i++) {
                int f = frameOf.get(i);
                owed[f] &= outcomes.get(i).outcome().receipted();
                count(outcomes.get(i), copies.get(i), owners.get(i), frames.get(f).from(), Direction.WAN_IN);
                // The gateway's own custody steps, forwarded on, are not messages.
                if (outcomes.get(i).outcome() == Outcome.STORED
                        && !ForwardedStep.TYPE.equals(owners.get(i).kmtfType())) {
                    receiving.stored(owners.get(i));
                }
                if (copies.get(i).route() instanceof Route.Peer(SiteId peer)) {
                    woken.add(peer);
                }
                else {
                    lanWork = true;
                }
            }
            woken.forEach(p -> senders.get(p).wake());
            if (lanWork) {
                deliverer.wake();
            }
        }
        for (int f = 0; f < frames.size(); f++) {
            if (owed[f]) {
                Received received = frames.get(f);
                received.peer().owe(received.frame().epoch(), received.frame().seq());
            }
        }
    }

    /**
     * Keeps the custody steps other sites' gateways forwarded here in this site's custody log, and those that do not
     * read as steps (bad input from a peer) in the quarantine, on disk before their frames are receipted.
     *
     * @return whether all of them are kept; if not, their frames are not receipted, and come again
     */
    private boolean recordSteps(List<Envelope> envelopes, List<SiteId> from) {
        if (envelopes.isEmpty()) {
            return true;
        }
        List<ForwardedStep> steps = new ArrayList<>();
        List<Envelope> unreadable = new ArrayList<>();
        for (int i = 0; i < envelopes.size(); i++) {
            Envelope envelope = envelopes.get(i);
            try {
                steps.add(CustodyEnvelopes.step(envelope));
            }
            catch (IllegalArgumentException ex) {
                log.warn("Custody step {} from site {} is unreadable ({}): kept in relay_quarantine",
                        envelope.messageId(), from.get(i), ex.getMessage());
                unreadable.add(envelope);
            }
        }
        try {
            int added = store.forwardedCustody().record(steps);
            metrics.custodySteps(false, added);
            if (!unreadable.isEmpty()) {
                store.quarantine().keep(unreadable, INVALID_CUSTODY_STEP);
                unreadable.forEach(e -> metrics.quarantined(INVALID_CUSTODY_STEP, e));
            }
            return true;
        }
        catch (SQLException ex) {
            log.warn("Unable to keep {} custody steps other sites forwarded: {}; they come again", envelopes.size(),
                    ex.getMessage());
            return false;
        }
    }

    /**
     * Stores custody steps for the WAN, each towards the site of the node its messages came from.
     *
     * @return the ids of those stored, absorbed as stored before, or that no route reaches (counted and logged)
     */
    Set<String> forward(List<Envelope> steps) throws SQLException {
        Set<String> handled = new HashSet<>();
        List<Copy> copies = new ArrayList<>();
        for (Envelope step : steps) {
            Optional<SiteId> site = sites.siteOf(step.origin());
            int before = copies.size();
            if (site.isPresent() && !site.get().equals(self)) {
                split(step, List.of(self), Set.of(site.get()), null, copies, null);
            }
            if (copies.size() == before) {
                handled.add(step.messageId());
            }
        }
        if (copies.isEmpty()) {
            return handled;
        }
        List<Acceptance> outcomes = store.accept(copies);
        Set<SiteId> woken = new HashSet<>();
        int stored = 0;
        for (int i = 0; i < copies.size(); i++) {
            if (outcomes.get(i).outcome() == Outcome.STORED) {
                stored++;
            }
            if (outcomes.get(i).outcome().receipted()) {
                handled.add(copies.get(i).messageId());
            }
            if (copies.get(i).route() instanceof Route.Peer(SiteId peer)) {
                woken.add(peer);
            }
        }
        woken.forEach(p -> senders.get(p).wake());
        metrics.custodySteps(true, stored);
        return handled;
    }

    /**
     * The message with this site's hop, {@code site <site> relayed} at {@code now}, at the end of its trace; as it is
     * if its trace has that hop already, so that one gateway (or the two of a pair, which are one site) stamps a
     * message once however often it is offered.
     */
    static Envelope stamped(Envelope envelope, SiteId site, Instant now) {
        for (Hop hop : envelope.trace().hops()) {
            if (hop.kind() == HopTrace.Kind.SITE && hop.action() == HopTrace.Action.RELAYED
                    && hop.name().equals(site.value())) {
                return envelope;
            }
        }
        return envelope.withHop(Hop.site(site, HopTrace.Action.RELAYED, now));
    }

    /**
     * Whether the message is stored for this site's LAN: unless every destination node here is refused for want of
     * clearance (the LAN side delivers to cleared nodes only); each refused node is counted.
     */
    private boolean clearedHere(Envelope envelope, CustodyLog.Entries unstored) {
        Clearances clearances = sites.nodeClearances();
        boolean cleared = false;
        boolean refused = false;
        for (NodeId node : sites.localOf(routing.destinations(envelope.kmtfType(), envelope.origin()))) {
            if (clearances.clearsLabel(node.value(), envelope.classification())) {
                cleared = true;
            }
            else {
                refused(envelope, "node " + node, node.value(), clearances.of(node.value()), unstored);
                refused = true;
            }
        }
        return cleared || !refused;
    }

    /** A refusal for want of clearance: counted, logged sparsely, and a custody step of its own. */
    private void refused(Envelope envelope, String what, String destination, Classification clearance,
            CustodyLog.@Nullable Entries unstored) {
        // Logged sparsely: a stream of traffic above a site's clearance would otherwise log a line per message; the
        // counters have each one.
        long count = refusedForClearance.incrementAndGet();
        if (Long.bitCount(count) == 1) {
            log.warn("Message {} ({}, from {}) is {} ('{}'); {} is cleared {}: not relayed there (refusal #{} for "
                    + "want of clearance)", envelope.messageId(), envelope.kmtfType(), envelope.origin(),
                    Clearances.levelOfLabel(envelope.classification()), envelope.classification(), what, clearance,
                    count);
        }
        metrics.dropped(DropReason.CLEARANCE.label(), envelope);
        metrics.clearanceRefused(destination);
        if (unstored != null) {
            unstored.add(CustodyEvent.REFUSED, envelope.messageId(), List.of(destination), envelope.precedence(),
                    what + " is cleared " + clearance + ", the message is "
                            + Clearances.levelOfLabel(envelope.classification()), envelope.origin());
        }
    }

    /**
     * Adds a copy per next hop towards {@code destinations}; sites no route reaches are counted and logged, and so
     * are sites the message may not reach: their clearance, or that of the next hop towards them, is below its
     * classification. Each is a custody step in {@code unstored} (none for a forwarded custody step).
     */
    private void split(Envelope envelope, List<SiteId> crossed, Set<SiteId> destinations,
            @Nullable String supersedeKey, List<Copy> copies, CustodyLog.@Nullable Entries unstored) {
        Clearances clearances = sites.siteClearances();
        Set<SiteId> cleared = new TreeSet<>();
        for (SiteId site : destinations) {
            if (site.equals(self) || crossed.contains(site)) {
                continue;
            }
            Optional<SiteId> hop = routes.nextHop(site);
            if (!clearances.clearsLabel(site.value(), envelope.classification())) {
                refused(envelope, "site " + site, site.value(), clearances.of(site.value()), unstored);
            }
            else if (hop.isPresent() && !clearances.clearsLabel(hop.get().value(), envelope.classification())) {
                refused(envelope, "site " + hop.get() + ", the next hop towards " + site, site.value(),
                        clearances.of(hop.get().value()), unstored);
            }
            else {
                cleared.add(site);
            }
        }
        List<SiteId> unroutable = new ArrayList<>();
        Map<SiteId, SortedSet<SiteId>> byHop = routes.split(cleared, crossed, unroutable);
        if (!unroutable.isEmpty()) {
            long count = unroutableMessages.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                log.warn("Message {} ({}) is bound for sites {}, which no route reaches from site {}: not relayed "
                        + "there (unroutable message #{})", envelope.messageId(), envelope.kmtfType(), unroutable,
                        self, count);
            }
            metrics.dropped("unroutable", envelope);
            if (unstored != null) {
                unstored.add(CustodyEvent.DROPPED, envelope.messageId(), unroutable, envelope.precedence(),
                        "unroutable: no route from site " + self, envelope.origin());
            }
        }
        byHop.forEach((hop, bound) -> {
            RelayedEnvelope relayed = new RelayedEnvelope(envelope, crossed, bound);
            copies.add(supersedeKey == null ? Copy.of(Route.peer(hop), relayed)
                    : Copy.superseding(Route.peer(hop), relayed, supersedeKey));
        });
    }

    private void count(Acceptance acceptance, Copy copy, Envelope envelope, SiteId site, Direction direction) {
        switch (acceptance.outcome()) {
            case STORED -> metrics.relayed(site, direction, envelope);
            case SUPERSEDED -> metrics.dropped("superseded", envelope);
            case DUPLICATE, REFUSED -> {
            }
        }
        if (acceptance.superseded() != null) {
            metrics.dropped("superseded", acceptance.superseded().precedence(), acceptance.superseded().kmtfType());
        }
    }

    @Override
    public void queueDrained(SiteId peer) {
        PeerSender sender = senders.get(peer);
        if (sender != null) {
            sender.wake();
        }
    }

    @Override
    public void stateChanged(SiteId peer, LinkState state) {
        log.info("Link to site {} is {}", peer, state.label());
        PeerSender sender = senders.get(peer);
        if (sender == null) {
            return;
        }
        if (state == LinkState.DOWN) {
            sender.linkDown();
        }
        else {
            sender.wake();
        }
    }

    /** Stops the threads, then the LAN side and the link; the store keeps what was not passed on. */
    @Override
    public synchronized void close() {
        senders.values().forEach(PeerSender::stop);
        deliverer.stop();
        forwarder.stop();
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(10));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        lan.close();
        link.close();
    }
}

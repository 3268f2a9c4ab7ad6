package kr.c4i.gateway.wan.lan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.dds.transport.Relaying;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;
import kr.c4i.gateway.wan.site.SiteMap;

/**
 * The LAN side on a site whose nodes talk DDS. The gateway joins the site's domain as one more participant,
 * standing in for every node at other sites:
 *
 * <ul>
 * <li>It reads the topics of the types nodes at other sites subscribe to. What a node of this site publishes there
 * goes to the engine; once stored, the gateway publishes a receipt to the origin naming each destination node at
 * another site as receiver, so the origin's outbox counts those deliveries done: custody passed to the gateway. What
 * the store refuses is not receipted, and the origin sends it again.</li>
 * <li>It delivers a relayed message by publishing it unchanged (its origin the node at the other site) on its type's
 * topic. The destination nodes of this site receipt it to that origin's partition, which the gateway reads; custody
 * passes, and the engine is told, once every destination node at this site has receipted. Until then the gateway
 * publishes it again, after {@code resendAfter}, doubling up to {@code resendMax}. A BEST_EFFORT message passes
 * custody once written, as between nodes.</li>
 * <li>It never takes what it published back as traffic of this site: samples whose origin is a node at another site
 * are its own (see {@link Relaying}), and only messages whose origin is a node of this site are ingested.</li>
 * </ul>
 */
public final class DdsLanSide implements LanSide {

    private static final Logger log = LoggerFactory.getLogger(DdsLanSide.class);

    private final NodeId gateway;
    private final LanRoutes routes;
    private final KmtfCatalogue catalogue;
    private final DdsTransportSettings settings;
    private final Duration resendAfter;
    private final Duration resendMax;
    private final DdsTransport transport;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    // DdsTransport.send is called from the engine and the resender; one at a time keeps each batch's flushes whole.
    private final ReentrantLock sending = new ReentrantLock();
    private final AtomicLong ingested = new AtomicLong();
    private final AtomicLong refusedByStore = new AtomicLong();
    private final AtomicLong ignored = new AtomicLong();
    private final AtomicLong invalid = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong resent = new AtomicLong();
    // Deliveries a full writer cut short, logged sparsely: on a slow LAN it happens again and again.
    private final AtomicLong busy = new AtomicLong();
    private volatile @Nullable LanIngest ingest;
    private volatile @Nullable ScheduledExecutorService resender;
    private volatile boolean open;

    /** A RELIABLE message handed to this site's nodes, until each of {@code remaining} receipted it. */
    private static final class Pending {

        final RelayedEnvelope relayed;
        final MessageType type;
        final Set<NodeId> remaining;
        Duration wait;
        long dueNanos;

        Pending(RelayedEnvelope relayed, MessageType type, List<NodeId> destinations, Duration wait) {
            this.relayed = relayed;
            this.type = type;
            this.remaining = ConcurrentHashMap.newKeySet();
            this.remaining.addAll(destinations);
            this.wait = wait;
            this.dueNanos = System.nanoTime() + wait.toNanos();
        }
    }

    /**
     * @param gateway the gateway's own node id on the domain: neither a node of the routing table nor of the map
     * @param sites where each node is
     * @param routing who subscribes to what
     * @param catalogue the types, each with its topic
     * @param settings the gateway's participant in this site's domain, as for a node
     * @param resendAfter first wait before a relayed RELIABLE message some destination node has not receipted is
     *        published again; doubles per attempt
     * @param resendMax the longest wait between such resends
     * @throws IllegalArgumentException naming each problem
     */
    public DdsLanSide(NodeId gateway, SiteMap sites, RoutingTable routing, KmtfCatalogue catalogue,
            DdsTransportSettings settings, Duration resendAfter, Duration resendMax) {
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.routes = new LanRoutes(sites, routing);
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.resendAfter = Objects.requireNonNull(resendAfter, "resendAfter");
        this.resendMax = Objects.requireNonNull(resendMax, "resendMax");
        List<String> problems = new ArrayList<>(this.routes.checkGatewayNode(gateway));
        if (resendAfter.isNegative() || resendAfter.isZero()) {
            problems.add("resendAfter must be positive, was " + resendAfter);
        }
        if (resendMax.compareTo(resendAfter) < 0) {
            problems.add("resendMax (" + resendMax + ") must not be shorter than resendAfter (" + resendAfter + ")");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid DDS LAN side of site " + sites.thisSite() + ": "
                    + String.join("; ", problems));
        }
        this.transport = new DdsTransport(gateway, catalogue, this.routes.typesSubscribedRemotely(), settings,
                new Relaying(sites.remoteNodes(), this::receiptsAs));
    }

    /**
     * What DDS Security refused on this site's domain since the gateway joined it, by reason (the reasons of
     * {@link kr.c4i.gateway.dds.transport.DdsTransportStats#refused}): participants kept out, samples claiming an
     * origin or receiver their writer's permissions do not allow. Each call reads the transport's statuses.
     */
    public Map<String, Long> securityRefused() {
        return this.transport.stats().refused();
    }

    /** Times the gateway's transport recreated its participant after a failed DDS Security handshake. */
    public long participantsRecreated() {
        return this.transport.participantsRecreated();
    }

    /** Who a receipt for a message taken off the LAN names: its destination nodes at other sites. */
    private Set<NodeId> receiptsAs(Envelope envelope) {
        return this.routes.sites().isLocal(envelope.origin()) ? this.routes.remoteDestinations(envelope) : Set.of();
    }

    /**
     * Joins the domain, starts reading the remotely subscribed types and the receipts for remote origins, and starts
     * the resender.
     *
     * @throws TransportException if the domain cannot be joined
     */
    @Override
    public String kind() {
        return "dds";
    }

    @Override
    public synchronized void open(LanIngest ingest) throws TransportException {
        Objects.requireNonNull(ingest, "ingest");
        if (this.ingest != null) {
            throw new IllegalStateException("The DDS LAN side was already opened");
        }
        this.ingest = ingest;
        try {
            this.transport.open();
        }
        catch (TransportException | RuntimeException ex) {
            // The transport can be opened again: so can this.
            this.ingest = null;
            throw ex;
        }
        this.transport.onReceipts(this::receipted);
        this.transport.subscribe(new Taker(ingest));
        long tick = Math.clamp(this.resendAfter.toMillis() / 4, 10, 1_000);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("dds-lan-resend-" + this.gateway).factory());
        executor.scheduleWithFixedDelay(this::resendDue, tick, tick, TimeUnit.MILLISECONDS);
        this.resender = executor;
        this.open = true;
        log.info("DDS LAN side of site {} open as {}: taking {} types for {} remote nodes, delivering to {}",
                this.routes.sites().thisSite(), this.gateway, this.routes.typesSubscribedRemotely().size(),
                this.routes.sites().remoteNodes().size(), this.routes.localSubscribers());
    }

    /** Takes what this site's nodes publish for nodes elsewhere to the engine; runs on the receive thread. */
    private final class Taker implements InboundHandler {

        private final LanIngest ingest;

        Taker(LanIngest ingest) {
            this.ingest = ingest;
        }

        @Override
        public void deliver(List<Envelope> batch) throws Exception {
            deliver(batch, List.of());
        }

        @Override
        public List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) throws Exception {
            for (InboundRefusal refusal : refused) {
                // Its destinations at other sites would refuse it too; the origin's operator sees it unreceipted.
                long count = invalid.incrementAndGet();
                if (Long.bitCount(count) == 1) {
                    log.warn("Not relaying invalid sample #{} on {} from {}: {}: {}", count, refusal.topic(),
                            refusal.origin(), refusal.kind(), refusal.reason());
                }
            }
            List<Envelope> candidates = new ArrayList<>(batch.size());
            for (Envelope envelope : batch) {
                if (routes.sites().isLocal(envelope.origin()) && !routes.remoteDestinations(envelope).isEmpty()) {
                    candidates.add(envelope);
                }
                else {
                    // An origin the site map does not place, or a type no remote node takes from it.
                    ignored.incrementAndGet();
                    log.debug("Not relaying message {} of {} from {}", envelope.messageId(), envelope.kmtfType(),
                            envelope.origin());
                }
            }
            if (candidates.isEmpty()) {
                return List.of();
            }
            Set<String> stored = this.ingest.ingest(List.copyOf(candidates));
            List<Envelope> taken = candidates.stream().filter(e -> stored.contains(e.messageId())).toList();
            ingested.addAndGet(taken.size());
            refusedByStore.addAndGet(candidates.size() - taken.size());
            return taken;
        }
    }

    /**
     * Publishes each message on its type's topic for its destination nodes at this site.
     *
     * @return as {@link LanSide#deliver}; when a RELIABLE writer stayed full (readers not keeping up), what it did
     *         not take is {@link LanDelivery#notTaken not taken}
     * @throws TransportException if the domain is gone
     */
    @Override
    public LanDelivery deliver(List<RelayedEnvelope> batch) throws TransportException {
        if (!this.open) {
            throw new IllegalStateException("The DDS LAN side is not open");
        }
        Set<String> passed = new LinkedHashSet<>();
        Set<String> waiting = new LinkedHashSet<>();
        Map<String, String> rejected = new LinkedHashMap<>();
        Map<String, Outbound> sends = new LinkedHashMap<>();
        Map<String, Pending> registered = new LinkedHashMap<>();
        for (RelayedEnvelope relayed : batch) {
            Envelope envelope = relayed.envelope();
            String id = envelope.messageId();
            Optional<MessageType> found = this.catalogue.find(envelope.kmtfType());
            if (found.isEmpty()) {
                rejected.put(id, "type " + envelope.kmtfType() + " is not in this gateway's catalogue");
                continue;
            }
            MessageType type = found.get();
            List<NodeId> destinations = this.routes.localDestinations(envelope);
            if (destinations.isEmpty()) {
                passed.add(id);
                continue;
            }
            if (type.reliability() == Reliability.RELIABLE) {
                // Registered before it is written, so that no receipt can come before its pending entry.
                Pending created = new Pending(relayed, type, destinations, this.resendAfter);
                Pending existing = this.pending.putIfAbsent(id, created);
                if (existing == null) {
                    registered.put(id, created);
                }
                waiting.add(id);
            }
            else {
                passed.add(id);
            }
            sends.put(id, new Outbound(envelope, type, destinations));
        }
        Set<String> notTaken = new LinkedHashSet<>();
        try {
            send(sends, rejected);
        }
        catch (TransportBusyException full) {
            // What the writers took before one was full is on its way, a RELIABLE one resent by this side until
            // receipted: offered again by the engine, it would cross the LAN twice. Only the rest goes back.
            Set<String> taken = Set.copyOf(full.taken());
            sends.keySet().stream().filter(id -> !taken.contains(id) && !rejected.containsKey(id))
                    .forEach(notTaken::add);
            if (Long.bitCount(this.busy.incrementAndGet()) == 1) {
                log.warn("This site's nodes are not keeping up (#{}): {} of {} relayed messages taken, the rest "
                        + "offered again: {}", this.busy.get(), taken.size(), sends.size(), full.getMessage());
            }
        }
        catch (TransportException | RuntimeException ex) {
            registered.forEach(this.pending::remove);
            throw ex;
        }
        Stream.concat(rejected.keySet().stream(), notTaken.stream()).forEach(id -> {
            passed.remove(id);
            waiting.remove(id);
            Pending p = registered.get(id);
            if (p != null) {
                this.pending.remove(id, p);
            }
        });
        this.delivered.addAndGet(passed.size());
        return new LanDelivery(passed, waiting, rejected, notTaken);
    }

    /** Sends all; a message the transport rejects is set aside with its reason and the rest sent again. */
    private void send(Map<String, Outbound> sends, Map<String, String> rejected) throws TransportException {
        Map<String, Outbound> remaining = new LinkedHashMap<>(sends);
        this.sending.lock();
        try {
            while (!remaining.isEmpty()) {
                try {
                    this.transport.send(List.copyOf(remaining.values()));
                    return;
                }
                catch (MessageRejectedException ex) {
                    if (remaining.remove(ex.messageId()) == null) {
                        throw ex;
                    }
                    rejected.put(ex.messageId(), ex.getMessage());
                }
            }
        }
        finally {
            this.sending.unlock();
        }
    }

    /** A destination node at this site receipted: custody passes for each message every destination receipted. */
    private void receipted(NodeId receiver, List<String> messageIds) {
        Set<String> done = new LinkedHashSet<>();
        for (String id : messageIds) {
            Pending p = this.pending.get(id);
            if (p != null && p.remaining.remove(receiver) && p.remaining.isEmpty() && this.pending.remove(id, p)) {
                done.add(id);
            }
        }
        LanIngest target = this.ingest;
        if (!done.isEmpty() && target != null) {
            this.delivered.addAndGet(done.size());
            try {
                target.delivered(Set.copyOf(done));
            }
            catch (RuntimeException ex) {
                // The engine keeps them stored and hands them over again after a restart; the nodes deduplicate.
                log.warn("The engine failed to take custody reports for {} messages", done.size(), ex);
            }
        }
    }

    /** Publishes again what some destination node has not receipted within its wait. */
    private void resendDue() {
        try {
            long now = System.nanoTime();
            List<Pending> due = new ArrayList<>();
            for (Pending p : this.pending.values()) {
                if (p.dueNanos - now <= 0 && !p.remaining.isEmpty()) {
                    due.add(p);
                    if (due.size() >= this.settings.maxBatch()) {
                        break;
                    }
                }
            }
            if (due.isEmpty()) {
                return;
            }
            Map<String, Outbound> sends = new LinkedHashMap<>();
            for (Pending p : due) {
                sends.put(p.relayed.messageId(), new Outbound(p.relayed.envelope(), p.type,
                        List.copyOf(p.remaining)));
                p.wait = p.wait.multipliedBy(2).compareTo(this.resendMax) > 0 ? this.resendMax : p.wait.multipliedBy(2);
                p.dueNanos = now + p.wait.toNanos();
            }
            Map<String, String> rejected = new LinkedHashMap<>();
            send(sends, rejected);
            this.resent.addAndGet(sends.size() - rejected.size());
            log.debug("Published {} relayed messages again that destination nodes had not receipted", sends.size());
            rejected.forEach((id, reason) -> log.warn("Not publishing message {} again: {}", id, reason));
        }
        catch (TransportException | RuntimeException ex) {
            log.warn("Unable to publish unreceipted relayed messages again; retrying: {}", ex.toString());
        }
    }

    /**
     * The gateway's transport's health, with {@code site}, {@code pending} (relayed messages some node of this site
     * has not receipted), {@code ingested}, {@code refused} (by the store), {@code ignored}, {@code invalid},
     * {@code delivered} and {@code resent}.
     */
    @Override
    public TransportHealth health() {
        TransportHealth health = this.transport.health();
        Map<String, Object> details = new LinkedHashMap<>(health.details());
        details.put("site", this.routes.sites().thisSite().value());
        details.put("pending", this.pending.size());
        details.put("ingested", this.ingested.get());
        details.put("refused", this.refusedByStore.get());
        details.put("ignored", this.ignored.get());
        details.put("invalid", this.invalid.get());
        details.put("delivered", this.delivered.get());
        details.put("resent", this.resent.get());
        details.put("busy", this.busy.get());
        return new TransportHealth(health.up() && this.open, details);
    }

    /** Stops the resender and leaves the domain; what was pending is handed over again by the engine. */
    @Override
    public void close() {
        this.open = false;
        ScheduledExecutorService executor = this.resender;
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        this.transport.close();
        this.pending.clear();
    }

    @Override
    public String toString() {
        return "DdsLanSide[site " + this.routes.sites().thisSite() + ", node " + this.gateway + "]";
    }
}

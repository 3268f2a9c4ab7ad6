package kr.c4i.gateway.wan.lan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.jms.BrokerMode;
import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;
import kr.c4i.gateway.wan.site.SiteMap;

/**
 * The LAN side on a site whose nodes talk JMS. The gateway has its own broker, which is every site node's peer for
 * the nodes at other sites: a node sends to remote node {@code c} exactly as to a local one, and its bridge forwards
 * the copy to queue {@code kmtf.node.c} of the gateway's broker. The gateway consumes the queue of every remote node
 * in transactions and commits only once the engine stored the batch; a batch the store refused in part is rolled
 * back whole and comes again (what was stored of it is absorbed as a duplicate).
 *
 * <p>Delivery sends one copy per destination node at this site to that node's queue on the gateway's broker, whose
 * bridge forwards it to the node's broker, as any node's send does: custody passes when the send is committed on
 * the gateway's broker (the store-and-forward first hop), so {@link #deliver} reports it at once.
 */
public final class JmsLanSide implements LanSide {

    private static final Logger log = LoggerFactory.getLogger(JmsLanSide.class);

    private final JmsTransportSettings settings;
    private final LanRoutes routes;
    private final KmtfCatalogue catalogue;
    private final JmsTransport transport;
    private final AtomicLong ingested = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private volatile boolean open;

    /**
     * @param settings the gateway's own node on its own (embedded) broker; its peers are the nodes at this site that
     *        it delivers to, each with its broker's URL
     * @param sites where each node is
     * @param routing who subscribes to what
     * @param catalogue the types the gateway knows
     * @param customizers applied to the embedded broker's configuration, as for a node
     * @throws IllegalArgumentException naming each problem: a node at this site that subscribes to something is not
     *         a peer, a node at another site is a peer, the gateway's node id is a node of the routing table
     */
    public JmsLanSide(JmsTransportSettings settings, SiteMap sites, RoutingTable routing, KmtfCatalogue catalogue,
            List<EmbeddedBrokerCustomizer> customizers) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.routes = new LanRoutes(sites, routing);
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        List<String> problems = new ArrayList<>(this.routes.checkGatewayNode(settings.nodeId()));
        for (NodeId node : this.routes.localSubscribers()) {
            if (!settings.peers().containsKey(node)) {
                problems.add("node " + node + " of this site subscribes to messages but is not a peer of the gateway");
            }
        }
        for (NodeId node : settings.peers().keySet()) {
            if (sites.isRemote(node)) {
                problems.add("node " + node + " is at site " + sites.siteOf(node).orElseThrow()
                        + ", so its queue is the gateway's to consume, not a peer to bridge to");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid JMS LAN side of site " + sites.thisSite() + ": "
                    + String.join("; ", problems));
        }
        this.transport = new JmsTransport(settings, customizers, sites.remoteNodes());
    }

    public JmsLanSide(JmsTransportSettings settings, SiteMap sites, RoutingTable routing, KmtfCatalogue catalogue) {
        this(settings, sites, routing, catalogue, List.of());
    }

    /**
     * Starts the gateway's broker and one consumer per remote node's queue.
     *
     * @throws TransportException if the broker cannot be started or reached
     */
    @Override
    public String kind() {
        return "jms";
    }

    @Override
    public void open(LanIngest ingest) throws TransportException {
        Objects.requireNonNull(ingest, "ingest");
        this.transport.open();
        if (!this.routes.sites().remoteNodes().isEmpty()) {
            this.transport.subscribeRelayed(batch -> ingest(ingest, batch));
        }
        this.open = true;
        log.info("JMS LAN side of site {} open: consuming the queues of {} remote nodes, delivering to {}",
                this.routes.sites().thisSite(), this.routes.sites().remoteNodes().size(),
                this.settings.peers().keySet());
    }

    /**
     * Starts the gateway's broker when it is one of a pair, so that it holds the active broker's journal: what the
     * site's nodes handed to it and what was delivered through it. A lone broker waits for {@link #open}: the nodes
     * would forward to it messages no one takes.
     */
    @Override
    public void standBy() throws TransportException {
        if (this.settings.embedded().pair() != null && this.settings.effectiveMode() == BrokerMode.EMBEDDED) {
            this.transport.startBroker();
        }
    }

    @Override
    public TransportHealth standbyHealth() {
        return this.transport.standbyHealth();
    }

    private void ingest(LanIngest ingest, List<Envelope> batch) throws Exception {
        Set<String> stored = ingest.ingest(batch);
        List<String> notStored = batch.stream().map(Envelope::messageId).filter(id -> !stored.contains(id))
                .distinct().toList();
        if (!notStored.isEmpty()) {
            this.refused.addAndGet(notStored.size());
            // A JMS transaction is all or nothing: roll the batch back; what was stored comes again as a duplicate.
            throw new IngestRefusedException("The store refused " + notStored.size() + " of " + batch.size()
                    + " messages (" + abbreviate(notStored) + "); the batch is rolled back and comes again");
        }
        this.ingested.addAndGet(batch.size());
    }

    /**
     * Sends each message to its destination nodes at this site in one transaction on the gateway's broker.
     *
     * @throws TransportException if the broker failed; nothing of the batch is reported passed
     */
    @Override
    public LanDelivery deliver(List<RelayedEnvelope> batch) throws TransportException {
        if (!this.open) {
            throw new IllegalStateException("The JMS LAN side is not open");
        }
        Set<String> passed = new LinkedHashSet<>();
        Map<String, String> rejected = new LinkedHashMap<>();
        Map<String, Outbound> sends = new LinkedHashMap<>();
        for (RelayedEnvelope relayed : batch) {
            Envelope envelope = relayed.envelope();
            Optional<MessageType> type = this.catalogue.find(envelope.kmtfType());
            if (type.isEmpty()) {
                rejected.put(envelope.messageId(), "type " + envelope.kmtfType()
                        + " is not in this gateway's catalogue");
                continue;
            }
            List<NodeId> destinations = this.routes.localDestinations(envelope);
            if (destinations.isEmpty()) {
                log.debug("Message {} of {} has no destination at this site", envelope.messageId(),
                        envelope.kmtfType());
                passed.add(envelope.messageId());
                continue;
            }
            sends.put(envelope.messageId(), new Outbound(envelope, type.get(), destinations));
        }
        // The transport rejects a whole batch for its first bad message and sends nothing: set it aside and retry.
        while (!sends.isEmpty()) {
            try {
                this.transport.send(List.copyOf(sends.values()));
                passed.addAll(sends.keySet());
                this.delivered.addAndGet(sends.size());
                sends.clear();
            }
            catch (MessageRejectedException ex) {
                if (sends.remove(ex.messageId()) == null) {
                    throw ex;
                }
                rejected.put(ex.messageId(), ex.getMessage());
            }
        }
        rejected.keySet().forEach(passed::remove);
        return new LanDelivery(passed, Set.of(), rejected);
    }

    /** The gateway's transport's health, with {@code site}, {@code ingested}, {@code refused}, {@code delivered}. */
    @Override
    public TransportHealth health() {
        TransportHealth health = this.transport.health();
        Map<String, Object> details = new LinkedHashMap<>(health.details());
        details.put("site", this.routes.sites().thisSite().value());
        details.put("ingested", this.ingested.get());
        details.put("refused", this.refused.get());
        details.put("delivered", this.delivered.get());
        return new TransportHealth(health.up() && this.open, details);
    }

    @Override
    public void close() {
        this.open = false;
        this.transport.close();
    }

    private static String abbreviate(List<String> ids) {
        return ids.size() <= 5 ? String.join(", ", ids) : String.join(", ", ids.subList(0, 5)) + ", ...";
    }

    /** The store refused part of a batch: the batch is rolled back and redelivered. */
    static final class IngestRefusedException extends Exception {

        IngestRefusedException(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public String toString() {
        return "JmsLanSide[site " + this.routes.sites().thisSite() + ", node " + this.settings.nodeId() + "]";
    }
}

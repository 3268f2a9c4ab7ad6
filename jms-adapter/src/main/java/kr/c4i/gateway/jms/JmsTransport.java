package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Point-to-point JMS transport over ActiveMQ Artemis, as fielded systems do it: every node has its
 * own broker and a queue per destination node, and a message for N destinations becomes N sends.
 *
 * <p>{@link #send} puts each copy on the destination's queue of the local broker in one transaction;
 * with an embedded broker, a bridge per peer forwards that queue to the peer's broker, holding
 * messages in the local journal while the peer is away. {@link #subscribe} consumes this node's own
 * queue on its own broker. {@code send} may be called from one thread at a time (calls are
 * serialized); the handler runs on the transport's single consumer thread.
 */
public final class JmsTransport implements Transport {

    private static final Logger log = LoggerFactory.getLogger(JmsTransport.class);

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final JmsTransportSettings settings;
    private final BrokerMode mode;
    private final String brokerUrl;
    private final ActiveMQConnectionFactory connectionFactory;
    private final @Nullable EmbeddedBroker broker;
    private final OutboundSender sender;
    private final Set<NodeId> relayed;
    private final Object lifecycle = new Object();
    private @Nullable InboxConsumer consumer;
    private final List<InboxConsumer> relayConsumers = new CopyOnWriteArrayList<>();
    private volatile boolean opened;
    private volatile boolean closed;

    /**
     * @throws IllegalStateException if an embedded broker could not run on this JVM (see the message for the fix)
     */
    public JmsTransport(JmsTransportSettings settings) {
        this(settings, List.of());
    }

    /**
     * @param settings validated settings of this node
     * @param customizers applied in order to the embedded broker's configuration, after the settings; unused with
     *        an external broker
     * @throws IllegalStateException if an embedded broker could not run on this JVM (see the message for the fix)
     */
    public JmsTransport(JmsTransportSettings settings, List<EmbeddedBrokerCustomizer> customizers) {
        this(settings, customizers, Set.of());
    }

    /**
     * The transport of a site's WAN gateway: besides what a node has, its embedded broker holds a queue, without a
     * bridge, for each of {@code relayed}, the remote nodes the site's nodes send to through the gateway (their peers
     * setting maps those nodes to this broker); {@link #subscribeRelayed} consumes them.
     *
     * @param relayed nodes at other sites; neither this node nor one of its peers
     * @throws IllegalArgumentException naming each relayed node that is this node or a peer
     * @throws IllegalStateException if an embedded broker could not run on this JVM (see the message for the fix)
     */
    public JmsTransport(JmsTransportSettings settings, List<EmbeddedBrokerCustomizer> customizers,
            Set<NodeId> relayed) {
        this.settings = Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(customizers, "customizers");
        this.relayed = Collections.unmodifiableSet(new TreeSet<>(relayed));
        List<String> problems = new ArrayList<>();
        for (NodeId node : this.relayed) {
            if (node.equals(settings.nodeId())) {
                problems.add(node + " is this node itself");
            }
            else if (settings.peers().containsKey(node)) {
                problems.add(node + " is a peer, whose queue is bridged to its own broker");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid relayed nodes of node " + settings.nodeId() + ": "
                    + String.join("; ", problems));
        }
        this.mode = settings.effectiveMode();
        if (this.mode == BrokerMode.EMBEDDED) {
            EmbeddedBroker.requireDirectBufferCleaner();
        }
        JmsConnectionFactoryFactory factory = new JmsConnectionFactoryFactory(settings);
        this.brokerUrl = factory.brokerUrl();
        this.connectionFactory = factory.createConnectionFactory();
        this.broker = (this.mode == BrokerMode.EMBEDDED) ? new EmbeddedBroker(settings, customizers, this.relayed)
                : null;
        this.sender = new OutboundSender(settings, this.connectionFactory, this.brokerUrl);
    }

    @Override
    public TransportKind kind() {
        return TransportKind.JMS;
    }

    /**
     * Starts the embedded broker, if any, and connects to the node's broker.
     *
     * @throws TransportUnavailableException if the broker cannot be started or reached
     */
    @Override
    public void open() throws TransportException {
        synchronized (this.lifecycle) {
            if (this.closed) {
                throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " is closed");
            }
            if (this.opened) {
                return;
            }
            startBroker();
            try {
                this.sender.connect();
            }
            catch (TransportUnavailableException ex) {
                if (!waitsForItsPair()) {
                    if (this.broker != null) {
                        this.broker.close();
                    }
                    throw ex;
                }
                // A broker of a pair keeps running whichever of the two is active: a backup may start first, and
                // an active primary that hangs is failed over only when its backup notices, which may be after this
                // connect gave up on it. Stopping this one would leave the node with one broker fewer; sends fail,
                // retryably, until the transport reaches the active one.
                log.warn("Embedded broker of node {} is one of a pair ({}), and no broker of the pair answered yet; "
                        + "the transport connects when one does: {}", settings.nodeId(),
                        this.broker.isActive() ? "active" : "passive", ex.getMessage());
            }
            this.opened = true;
            log.info("Opened JMS transport of node {} ({} broker at {}, peers {})", settings.nodeId(),
                    this.mode.label(), this.brokerUrl, settings.peers().keySet());
        }
    }

    /**
     * Starts the embedded broker alone, ahead of {@link #open}: one of a pair runs while this process's clients wait
     * (a WAN gateway's standby), so that it holds its partner's journal when the partner goes. Does nothing without an
     * embedded broker or once it runs.
     *
     * @throws TransportUnavailableException if the broker cannot start (port taken, data directory locked)
     */
    public void startBroker() throws TransportException {
        synchronized (this.lifecycle) {
            if (this.closed) {
                throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " is closed");
            }
            if (this.broker != null) {
                this.broker.startFor("node " + settings.nodeId());
            }
        }
    }

    /**
     * Starts the consumer thread on this node's queue; the handler sees batches of up to
     * {@code receive.batchSize} envelopes, committed when it returns and redelivered when it throws.
     */
    @Override
    public void subscribe(InboundHandler handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (this.lifecycle) {
            requireOpen();
            if (this.consumer != null) {
                throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " already has a handler");
            }
            InboxConsumer created = new InboxConsumer(settings, this.connectionFactory, this.brokerUrl, handler);
            this.consumer = created;
            created.start();
        }
    }

    /**
     * Starts a consumer thread on the queue of each relayed node (see
     * {@link #JmsTransport(JmsTransportSettings, List, Set)}), with the batches and transactions of
     * {@link #subscribe}: a batch is committed when the handler returns and redelivered when it throws. The handler
     * is called from one thread per queue, so concurrently. With an external broker, the queues must exist there.
     *
     * @throws IllegalStateException if this transport relays for no node, or already consumes their queues
     */
    public void subscribeRelayed(InboundHandler handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (this.lifecycle) {
            requireOpen();
            if (this.relayed.isEmpty()) {
                throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " relays for no node");
            }
            if (!this.relayConsumers.isEmpty()) {
                throw new IllegalStateException("JMS transport of node " + settings.nodeId()
                        + " already consumes its relayed queues");
            }
            for (NodeId node : this.relayed) {
                InboxConsumer created = new InboxConsumer(settings, this.connectionFactory, this.brokerUrl, handler,
                        node);
                this.relayConsumers.add(created);
                created.start();
            }
        }
    }

    /**
     * Stores one copy of each message per destination on the local broker and returns once they are committed.
     *
     * @throws kr.c4i.gateway.core.transport.MessageRejectedException if a destination is not a configured peer;
     *         nothing of the batch was sent
     * @throws TransportUnavailableException if the broker failed; none of the batch was committed, or (after a
     *         resend of messages the broker already had) only some
     */
    @Override
    public void send(List<Outbound> batch) throws TransportException {
        Objects.requireNonNull(batch, "batch");
        requireOpen();
        this.sender.send(batch);
    }

    /**
     * Up when the broker is running (embedded) and this node holds a live connection to it. Details: {@code nodeId},
     * {@code mode}, {@code brokerUrl}, {@code inboxQueue}, {@code senderConnected}, {@code consumerConnected} (once
     * subscribed), {@code lastError} (if any); with an embedded broker also {@code brokerActive}, {@code inboxDepth}
     * and per peer {@code queue}, {@code bridgeConnected} and {@code pending} (JMS messages waiting for that peer);
     * with an embedded broker that is one of a pair, {@code pairRole}, {@code pairPartner}, {@code brokerRunning} and
     * {@code pairSynchronized} (the two hold the same journal), the broker being up when it runs, active or passive;
     * on a transport that relays, {@code relayedQueues}: per queue its {@code depth} (embedded broker) and, once
     * {@link #subscribeRelayed subscribed}, {@code consumerConnected} and {@code lastError}. Depths count JMS
     * messages, a bundle of envelopes once.
     */
    @Override
    public TransportHealth health() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("nodeId", settings.nodeId().value());
        details.put("mode", this.mode.label());
        details.put("brokerUrl", this.brokerUrl);
        String inbox = settings.queueName(settings.nodeId());
        details.put("inboxQueue", inbox);
        boolean brokerUp = true;
        if (this.broker != null) {
            boolean brokerActive = this.broker.isActive();
            details.put("brokerActive", brokerActive);
            JmsTransportSettings.Pair pair = settings.embedded().pair();
            if (pair == null) {
                brokerUp = brokerActive;
            }
            else {
                // A passive broker of a pair is as it should be, as long as it runs.
                brokerUp = this.broker.isRunning();
                details.putAll(this.broker.pairDetails());
            }
            this.broker.messageCount(inbox).ifPresent((depth) -> details.put("inboxDepth", depth));
        }
        Map<String, Object> peers = new LinkedHashMap<>();
        settings.peers().keySet().forEach((peer) -> {
            Map<String, Object> peerDetails = new LinkedHashMap<>();
            String queue = settings.queueName(peer);
            peerDetails.put("queue", queue);
            if (this.broker != null) {
                peerDetails.put("bridgeConnected", this.broker.bridgeConnected(peer));
                this.broker.messageCount(queue).ifPresent((pending) -> peerDetails.put("pending", pending));
            }
            peers.put(peer.value(), Map.copyOf(peerDetails));
        });
        details.put("peers", Map.copyOf(peers));
        if (!this.relayed.isEmpty()) {
            Map<String, Object> relayedQueues = new LinkedHashMap<>();
            for (NodeId node : this.relayed) {
                String queue = settings.queueName(node);
                Map<String, Object> queueDetails = new LinkedHashMap<>();
                if (this.broker != null) {
                    this.broker.messageCount(queue).ifPresent((depth) -> queueDetails.put("depth", depth));
                }
                this.relayConsumers.stream().filter((relay) -> relay.queue().equals(queue)).findFirst()
                        .ifPresent((relay) -> {
                            queueDetails.put("consumerConnected", relay.isConnected());
                            if (relay.lastError() != null) {
                                queueDetails.put("lastError", relay.lastError());
                            }
                        });
                relayedQueues.put(queue, Map.copyOf(queueDetails));
            }
            details.put("relayedQueues", Map.copyOf(relayedQueues));
        }
        boolean senderConnected = this.sender.isConnected();
        details.put("senderConnected", senderConnected);
        InboxConsumer current = this.consumer;
        boolean consumerConnected = current != null && current.isConnected();
        if (current != null) {
            details.put("consumerConnected", consumerConnected);
        }
        String lastError = (current != null && current.lastError() != null) ? current.lastError()
                : this.sender.lastError();
        if (lastError != null) {
            details.put("lastError", lastError);
        }
        boolean up = this.opened && !this.closed && brokerUp && (senderConnected || consumerConnected);
        return up ? TransportHealth.up(details) : TransportHealth.down(details);
    }

    /**
     * While this process stands by and only its embedded broker of a pair runs ({@link #startBroker}): that broker's
     * {@link EmbeddedBroker#standbyHealth}, up once it holds its partner's journal; up with no details without one.
     */
    public TransportHealth standbyHealth() {
        return (this.broker != null) ? this.broker.standbyHealth() : TransportHealth.up(Map.of());
    }

    /** Stops the consumer (letting a batch in the handler finish), disconnects and stops the embedded broker. */
    @Override
    public void close() {
        synchronized (this.lifecycle) {
            if (this.closed) {
                return;
            }
            this.closed = true;
            InboxConsumer current = this.consumer;
            if (current != null) {
                run("stop the inbox consumer", () -> current.stop(STOP_GRACE));
            }
            this.relayConsumers.forEach((relay) -> run("stop the consumer of " + relay.queue(),
                    () -> relay.stop(STOP_GRACE)));
            run("close the sender", this.sender::close);
            run("close the connection factory", this.connectionFactory::close);
            EmbeddedBroker embedded = this.broker;
            if (embedded != null) {
                run("stop the embedded broker", embedded::close);
            }
            log.info("Closed JMS transport of node {}", settings.nodeId());
        }
    }

    private boolean waitsForItsPair() {
        return this.broker != null && settings.embedded().pair() != null && this.broker.isRunning();
    }

    /** The embedded broker, if any, for tests. */
    @Nullable EmbeddedBroker embeddedBroker() {
        return this.broker;
    }

    private void run(String action, Runnable step) {
        try {
            step.run();
        }
        catch (RuntimeException ex) {
            log.warn("Unable to {} of node {}: {}", action, settings.nodeId(), ex.toString(), ex);
        }
    }

    private void requireOpen() {
        if (this.closed) {
            throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " is closed");
        }
        if (!this.opened) {
            throw new IllegalStateException("JMS transport of node " + settings.nodeId() + " is not open; call open()");
        }
    }

}

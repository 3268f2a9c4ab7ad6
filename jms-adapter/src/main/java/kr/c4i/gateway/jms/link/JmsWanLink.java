package kr.c4i.gateway.jms.link;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.jms.EmbeddedBroker;
import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code jms} WAN link over Artemis. Each site's broker (embedded, or external) holds the site's queue
 * {@code kmtf.wan.<site>}; {@link #send} produces a frame as a persistent {@code BytesMessage} straight to the
 * peer's queue on the peer's broker, over the WAN, without waiting: the peer broker's confirmation of the send (it
 * has the frame in its journal) is what {@link #unacknowledgedBytes} counts down. No store-and-forward bridge sits
 * in between, and the producer and confirmation windows hold about one second of the link budget, so the backlog
 * stays in the gateway's store, in precedence order.
 *
 * <p>A lost connection to a peer makes it {@link LinkState#DOWN}: frames not yet confirmed count as lost (the
 * gateway resends from its store), {@link #send} refuses with {@link TransportUnavailableException}, and the link
 * reconnects with back-off, {@link LinkState#UP} again on success. One thread receives this site's queue and hands
 * the frames waiting there to the handler together, acknowledging them only when the handler returns.
 */
public final class JmsWanLink implements WanLink {

    private static final Logger log = LoggerFactory.getLogger(JmsWanLink.class);

    /**
     * The largest frame: well under Artemis's 100 KiB large-message threshold (with room for headers), so a frame is
     * one message, never a stream of chunks; a frame is a batch of envelopes of about one MTU, far smaller.
     */
    public static final int MAX_FRAME_BYTES = 64 * 1024;

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final JmsLinkSettings settings;
    private final String brokerUrl;
    private final @Nullable EmbeddedBroker broker;
    private final Object lifecycle = new Object();
    // Calls to the handler, from the receive thread and the connector thread, one at a time.
    private final Object handlerLock = new Object();
    private @Nullable ScheduledExecutorService connector;
    private Map<SiteId, PeerSender> senders = Map.of();
    private @Nullable FrameReceiver receiver;
    private @Nullable FrameHandler handler;
    private volatile boolean opened;
    private volatile boolean closed;

    /**
     * @throws IllegalStateException if an embedded broker could not run on this JVM (see the message for the fix)
     */
    public JmsWanLink(JmsLinkSettings settings) {
        this(settings, List.of());
    }

    /**
     * @param customizers applied in order to the embedded broker's configuration, after the settings; unused with
     *        an external broker
     * @throws IllegalStateException if an embedded broker could not run on this JVM (see the message for the fix)
     */
    public JmsWanLink(JmsLinkSettings settings, List<EmbeddedBrokerCustomizer> customizers) {
        this.settings = Objects.requireNonNull(settings, "settings");
        if (settings.embeddedBroker()) {
            EmbeddedBroker.requireDirectBufferCleaner();
            this.broker = new EmbeddedBroker(settings.brokerSettings(), customizers);
            this.brokerUrl = this.broker.clientUrl();
        }
        else {
            this.broker = null;
            this.brokerUrl = Objects.requireNonNull(settings.brokerUrl());
        }
    }

    @Override
    public String kind() {
        return "jms";
    }

    @Override
    public Set<SiteId> peers() {
        return settings.peers().keySet();
    }

    @Override
    public int maxFrameBytes() {
        return MAX_FRAME_BYTES;
    }

    /**
     * Starts the embedded broker, if any, the receive thread, and the connections to the peers (in the background:
     * a peer not reachable yet stays {@link LinkState#CONNECTING}).
     *
     * @throws TransportUnavailableException if the embedded broker cannot start (port taken, data directory locked)
     */
    @Override
    public void open(FrameHandler handler) throws TransportException {
        Objects.requireNonNull(handler, "handler");
        synchronized (this.lifecycle) {
            if (this.closed) {
                throw new IllegalStateException("JMS link of site " + settings.site() + " is closed");
            }
            if (this.opened) {
                throw new IllegalStateException("JMS link of site " + settings.site() + " is already open");
            }
            startBroker();
            this.handler = handler;
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("jms-link-connect-" + settings.site()).daemon(true).factory());
            this.connector = executor;
            Map<SiteId, PeerSender> created = new TreeMap<>();
            for (SiteId peer : settings.peers().keySet()) {
                created.put(peer, new PeerSender(settings, peer, executor, this::stateChanged));
            }
            this.senders = Map.copyOf(created);
            FrameReceiver frames = new FrameReceiver(settings, this.brokerUrl, this::received);
            this.receiver = frames;
            frames.start();
            created.values().forEach(PeerSender::start);
            this.opened = true;
            log.info("Opened JMS link of site {} ({} broker at {}, peers {}, windows {})", settings.site(),
                    (this.broker != null) ? "embedded" : "external", Frames.masked(this.brokerUrl),
                    settings.peers().keySet(), settings.windows());
        }
    }

    /**
     * Starts the embedded broker alone, ahead of {@link #open}, when it is one of a pair: it runs on the standby
     * gateway, so that it holds its partner's journal when the partner goes. A lone broker waits for {@link #open}:
     * peers would send it frames no one takes.
     *
     * @throws TransportUnavailableException if the embedded broker cannot start (port taken, data directory locked)
     */
    @Override
    public void standBy() throws TransportException {
        synchronized (this.lifecycle) {
            if (this.closed) {
                throw new IllegalStateException("JMS link of site " + settings.site() + " is closed");
            }
            if (settings.embedded() != null && settings.embedded().pair() != null) {
                startBroker();
            }
        }
    }

    /** Its embedded broker of a pair's {@link EmbeddedBroker#standbyHealth}; up with no details without one. */
    @Override
    public TransportHealth standbyHealth() {
        return (this.broker != null) ? this.broker.standbyHealth() : TransportHealth.up(Map.of());
    }

    private void startBroker() throws TransportException {
        if (this.broker != null) {
            this.broker.startFor("site " + settings.site());
        }
    }

    /**
     * Produces the frame to the peer's broker and returns without waiting for its confirmation.
     *
     * @throws TransportUnavailableException if the peer is not {@link LinkState#UP} or the connection failed now;
     *         the frame was not taken
     */
    @Override
    public void send(SiteId peer, byte[] frame) throws TransportException {
        Objects.requireNonNull(frame, "frame");
        PeerSender sender = sender(peer);
        if (frame.length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("Frame of " + frame.length + " bytes for site " + peer
                    + " exceeds the JMS link's largest frame of " + MAX_FRAME_BYTES + " bytes");
        }
        requireOpen();
        sender.send(frame);
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        PeerSender sender = this.senders.get(peer);
        return (sender != null) ? sender.unacknowledgedBytes() : 0;
    }

    @Override
    public LinkState state(SiteId peer) {
        PeerSender sender = this.senders.get(peer);
        if (sender == null) {
            requirePeer(peer);
            return this.closed ? LinkState.DOWN : LinkState.CONNECTING;
        }
        return this.closed ? LinkState.DOWN : sender.state();
    }

    /**
     * {@code kind}, {@code site}, {@code broker} (embedded or external), {@code brokerUrl}, {@code brokerActive}
     * (embedded) and, one of a pair, its {@link EmbeddedBroker#pairDetails}, {@code queue}, {@code queueDepth}
     * (embedded), {@code invalidQueue}, {@code invalidMessages},
     * {@code receiverConnected}, {@code lastError}, {@code budgetBytesPerSecond}, {@code windows},
     * {@code maxFrameBytes}, and per peer its {@code url}, {@code queue}, {@code state}, {@code unacknowledgedBytes},
     * {@code framesSent}, {@code bytesSent}, {@code framesConfirmed}, {@code framesReceived}, {@code bytesReceived},
     * {@code lastFrameSeq} and {@code lastError}. Never a password.
     */
    @Override
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", kind());
        details.put("site", settings.site().value());
        details.put("broker", (this.broker != null) ? "embedded" : "external");
        details.put("brokerUrl", Frames.masked(this.brokerUrl));
        String queue = settings.queueName(settings.site());
        details.put("queue", queue);
        if (this.broker != null) {
            details.put("brokerActive", this.broker.isActive());
            this.broker.messageCount(queue).ifPresent((depth) -> details.put("queueDepth", depth));
            details.putAll(this.broker.pairDetails());
        }
        details.put("invalidQueue", settings.invalidQueue());
        FrameReceiver frames = this.receiver;
        details.put("invalidMessages", (frames != null) ? frames.invalidMessages() : 0L);
        details.put("receiverConnected", frames != null && frames.isConnected());
        String error = (frames != null) ? frames.lastError() : null;
        if (error != null) {
            details.put("lastError", error);
        }
        details.put("budgetBytesPerSecond", settings.budgetBytesPerSecond());
        JmsLinkSettings.Windows windows = settings.windows();
        details.put("windows", Map.of("producerWindowBytes", windows.producerWindowBytes(),
                "confirmationWindowBytes", windows.confirmationWindowBytes(),
                "consumerWindowBytes", windows.consumerWindowBytes()));
        details.put("maxFrameBytes", MAX_FRAME_BYTES);
        Map<String, Object> peers = new TreeMap<>();
        for (SiteId peer : settings.peers().keySet()) {
            Map<String, Object> peerDetails = new LinkedHashMap<>();
            PeerSender sender = this.senders.get(peer);
            if (sender != null) {
                peerDetails.putAll(sender.details());
            }
            peerDetails.put("state", state(peer).label());
            if (frames != null) {
                peerDetails.putAll(frames.received(peer));
            }
            peers.put(peer.value(), peerDetails);
        }
        details.put("peers", peers);
        return details;
    }

    /** Stops receiving (letting a frame in the handler finish), disconnects from peers and stops the broker. */
    @Override
    public void close() {
        synchronized (this.lifecycle) {
            if (this.closed) {
                return;
            }
            this.closed = true;
            FrameReceiver frames = this.receiver;
            if (frames != null) {
                run("stop receiving", () -> frames.stop(STOP_GRACE));
            }
            ScheduledExecutorService executor = this.connector;
            if (executor != null) {
                executor.shutdownNow();
            }
            this.senders.values().forEach((sender) -> run("disconnect from a peer", sender::close));
            if (executor != null) {
                run("stop the connector thread", () -> awaitTermination(executor));
            }
            if (this.broker != null) {
                run("stop the embedded broker", this.broker::close);
            }
            log.info("Closed JMS link of site {}", settings.site());
        }
    }

    private void received(List<ReceivedFrame> frames) {
        FrameHandler current = Objects.requireNonNull(this.handler);
        synchronized (this.handlerLock) {
            current.received(frames);
        }
    }

    // Called by a sender holding its own lock: only queue the call, in order, for the connector thread.
    private void stateChanged(SiteId peer, LinkState state) {
        ScheduledExecutorService executor = this.connector;
        if (executor == null || this.closed) {
            return;
        }
        log.info("Site {}: peer {} is {}", settings.site(), peer, state.label());
        try {
            executor.execute(() -> {
                FrameHandler current = this.handler;
                if (this.closed || current == null) {
                    return;
                }
                synchronized (this.handlerLock) {
                    try {
                        current.stateChanged(peer, state);
                    }
                    catch (RuntimeException ex) {
                        log.warn("Handler failed on peer {} becoming {}: {}", peer, state.label(), ex.toString(), ex);
                    }
                }
            });
        }
        catch (RejectedExecutionException ex) {
            log.debug("Not telling the handler that peer {} is {}: the link is closing", peer, state.label());
        }
    }

    private PeerSender sender(SiteId peer) {
        requirePeer(peer);
        PeerSender sender = this.senders.get(peer);
        if (sender == null) {
            requireOpen();
        }
        return Objects.requireNonNull(sender);
    }

    private void requirePeer(SiteId peer) {
        Objects.requireNonNull(peer, "peer");
        if (!settings.peers().containsKey(peer)) {
            throw new IllegalArgumentException("Site " + peer + " is not a peer of site " + settings.site()
                    + " on the JMS link (peers: " + settings.peers().keySet() + ")");
        }
    }

    private void requireOpen() {
        if (this.closed) {
            throw new IllegalStateException("JMS link of site " + settings.site() + " is closed");
        }
        if (!this.opened) {
            throw new IllegalStateException("JMS link of site " + settings.site() + " is not open; call open()");
        }
    }

    private void run(String action, Runnable step) {
        try {
            step.run();
        }
        catch (RuntimeException ex) {
            log.warn("Unable to {} of site {}: {}", action, settings.site(), ex.toString(), ex);
        }
    }

    private static void awaitTermination(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}

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
import kr.c4i.gateway.core.link.LinkLifecycle;
import kr.c4i.gateway.core.link.LinkState;
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
    private final LinkLifecycle<Open> lifecycle;
    // Calls to the handler, from the receive thread and the connector thread, one at a time.
    private final Object handlerLock = new Object();

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
        this.lifecycle = new LinkLifecycle<>(kind(), settings.site());
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
        this.lifecycle.open(() -> {
            startBroker();
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("jms-link-connect-" + settings.site()).daemon(true).factory());
            Map<SiteId, PeerSender> senders = new TreeMap<>();
            for (SiteId peer : settings.peers().keySet()) {
                senders.put(peer, new PeerSender(settings, peer, executor,
                        (site, state) -> stateChanged(executor, handler, site, state)));
            }
            FrameReceiver frames = new FrameReceiver(settings, this.brokerUrl, (received) -> {
                synchronized (this.handlerLock) {
                    handler.received(received);
                }
            });
            frames.start();
            senders.values().forEach(PeerSender::start);
            log.info("Opened JMS link of site {} ({} broker at {}, peers {}, windows {})", settings.site(),
                    (this.broker != null) ? "embedded" : "external", Frames.masked(this.brokerUrl),
                    settings.peers().keySet(), settings.windows());
            return new Open(executor, Map.copyOf(senders), frames);
        });
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
        this.lifecycle.beforeOpen(() -> {
            if (settings.embedded() != null && settings.embedded().pair() != null) {
                startBroker();
            }
        });
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
        requirePeer(peer);
        this.lifecycle.checkFrame(frame.length, MAX_FRAME_BYTES);
        this.lifecycle.require().senders().get(peer).send(frame);
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        PeerSender sender = sender(peer);
        return (sender != null) ? sender.unacknowledgedBytes() : 0;
    }

    @Override
    public LinkState state(SiteId peer) {
        PeerSender sender = sender(peer);
        if (this.lifecycle.isClosed()) {
            return LinkState.DOWN;
        }
        return (sender != null) ? sender.state() : LinkState.CONNECTING;
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
        Open open = this.lifecycle.current();
        FrameReceiver frames = (open != null) ? open.receiver() : null;
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
            PeerSender sender = (open != null) ? open.senders().get(peer) : null;
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
        boolean closing = this.lifecycle.close((open) -> {
            run("stop receiving", () -> open.receiver().stop(STOP_GRACE));
            open.connector().shutdownNow();
            open.senders().values().forEach((sender) -> run("disconnect from a peer", sender::close));
            run("stop the connector thread", () -> awaitTermination(open.connector()));
        });
        if (closing && this.broker != null) {
            // Also when only standBy() started it.
            run("stop the embedded broker", this.broker::close);
        }
        if (closing) {
            log.info("Closed JMS link of site {}", settings.site());
        }
    }

    // Called by a sender holding its own lock: only queue the call, in order, for the connector thread.
    private void stateChanged(ScheduledExecutorService executor, FrameHandler handler, SiteId peer, LinkState state) {
        if (this.lifecycle.isClosed()) {
            return;
        }
        log.info("Site {}: peer {} is {}", settings.site(), peer, state.label());
        try {
            executor.execute(() -> {
                if (this.lifecycle.isClosed()) {
                    return;
                }
                synchronized (this.handlerLock) {
                    try {
                        handler.stateChanged(peer, state);
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

    /** The sender to {@code peer} since the link opened; {@code null} before. */
    private @Nullable PeerSender sender(SiteId peer) {
        requirePeer(peer);
        Open open = this.lifecycle.current();
        return (open != null) ? open.senders().get(peer) : null;
    }

    private void requirePeer(SiteId peer) {
        this.lifecycle.peer(settings.peers(), Objects.requireNonNull(peer, "peer"));
    }

    private void run(String action, Runnable step) {
        try {
            step.run();
        }
        catch (RuntimeException ex) {
            log.warn("Unable to {} of site {}: {}", action, settings.site(), ex.toString(), ex);
        }
    }

    /** What exists while the link is open: the connector thread, a sender per peer and the receiver of this site. */
    private record Open(ScheduledExecutorService connector, Map<SiteId, PeerSender> senders, FrameReceiver receiver) {
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

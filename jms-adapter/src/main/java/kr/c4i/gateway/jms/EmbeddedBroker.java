package kr.c4i.gateway.jms;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.util.Version;
import io.netty.util.internal.PlatformDependent;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.cluster.Bridge;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's own Artemis broker, in this process; reports queue depths and bridge state for health. Public so that
 * the WAN link ({@code kr.c4i.gateway.jms.link}) runs its site's broker from the same configuration.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedBroker.class);

    private final JmsTransportSettings settings;
    private final List<EmbeddedBrokerCustomizer> customizers;
    private final Set<NodeId> relayed;
    private volatile @Nullable EmbeddedActiveMQ broker;

    public EmbeddedBroker(JmsTransportSettings settings, List<EmbeddedBrokerCustomizer> customizers) {
        this(settings, customizers, Set.of());
    }

    /** @param relayed nodes whose queues the broker holds, without bridges, for a WAN gateway to consume */
    EmbeddedBroker(JmsTransportSettings settings, List<EmbeddedBrokerCustomizer> customizers, Set<NodeId> relayed) {
        this.settings = settings;
        this.customizers = List.copyOf(customizers);
        this.relayed = Set.copyOf(relayed);
    }

    public void start() throws Exception {
        EmbeddedBrokerConfigurationFactory factory = new EmbeddedBrokerConfigurationFactory(settings, this.relayed);
        Configuration configuration = factory.createConfiguration();
        this.customizers.forEach((customizer) -> customizer.customize(configuration));
        EmbeddedActiveMQ server = new EmbeddedActiveMQ();
        server.setConfiguration(configuration);
        server.setSecurityManager(factory.createSecurityManager());
        // Artemis logs why a broker did not activate (its port taken, its journal unreadable) and returns from start
        // without it: the listener keeps the reason for the one-line error.
        server.createActiveMQServer();
        AtomicReference<@Nullable Exception> activationFailure = new AtomicReference<>();
        server.getActiveMQServer().registerActivationFailureListener(activationFailure::set);
        this.broker = server;
        server.getActiveMQServer().start();
        JmsTransportSettings.Pair pair = settings.embedded().pair();
        if (pair == null && !server.getActiveMQServer().isActive()) {
            Exception why = activationFailure.get();
            throw new IllegalStateException("broker did not become active ("
                    + (why != null ? reasons(why) : "is " + settings.embedded().dataDirectory()
                            + " locked by another broker?")
                    + ")", why);
        }
        if (pair == null) {
            log.info("Started embedded broker of node {} on {}:{} with data in {}", settings.nodeId(),
                    settings.embedded().host(), settings.embedded().port(), settings.embedded().dataDirectory());
        }
        else {
            // A backup, or a primary taking over again from its active backup, starts passive: it copies the
            // active broker's journal and listens for clients only once it becomes active itself.
            log.info("Started embedded broker of node {} on {}:{} with data in {} as the {} of a pair with {}: {}",
                    settings.nodeId(), settings.embedded().host(), settings.embedded().port(),
                    settings.embedded().dataDirectory(), pair.role().label(), pair.partner(),
                    server.getActiveMQServer().isActive() ? "active" : "passive");
        }
    }

    /**
     * {@link #start} unless it runs already, or stop what it started and say why in one line.
     *
     * @param owner whose broker, for the message: {@code node a}, {@code site s1}
     * @throws TransportUnavailableException if it cannot start (port taken, data directory locked)
     */
    public void startFor(String owner) throws TransportUnavailableException {
        if (this.broker != null) {
            return;
        }
        try {
            start();
        }
        catch (Exception ex) {
            close();
            throw new TransportUnavailableException("Unable to start the embedded broker of " + owner + " at "
                    + clientUrl() + " with data in " + settings.embedded().dataDirectory() + ": "
                    + OutboundSender.describe(ex), ex);
        }
    }

    /** An exception's message and its causes', one line: "Failed to bind acceptor ...: Address already in use". */
    private static String reasons(Throwable ex) {
        StringBuilder line = new StringBuilder(OutboundSender.describe(ex));
        for (Throwable cause = ex.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            String message = OutboundSender.describe(cause);
            if (line.indexOf(message) < 0) {
                line.append(": ").append(message);
            }
        }
        return line.toString().replace('\n', ' ');
    }

    /**
     * Artemis' NIO journal frees its direct buffers through Netty. Netty 4.2 (which Spring Boot 4 manages) can
     * do that on Java 25 only through {@code sun.misc.Unsafe}, which it no longer uses unless allowed; without
     * it the broker starts on an empty journal but cannot reload it after a restart. So refuse to start at all.
     */
    public static void requireDirectBufferCleaner() {
        try {
            PlatformDependent.freeDirectBuffer(ByteBuffer.allocateDirect(1));
        }
        catch (UnsupportedOperationException ex) {
            Version netty = Version.identify().get("netty-common");
            throw new IllegalStateException("Unable to start an embedded Artemis broker: Netty "
                    + ((netty != null) ? netty.artifactVersion() : "") + " cannot free direct buffers on this JVM ("
                    + ex.getMessage() + "), so the broker could not reload its journal after a restart. Start the JVM "
                    + "with --sun-misc-unsafe-memory-access=allow (or -Dio.netty.noUnsafe=false), or use Netty 4.1", ex);
        }
    }

    /**
     * Where this process's clients reach the broker: its acceptor through loopback when it binds a wildcard address,
     * or, one of a pair, both brokers of the pair, following the active one.
     */
    public String clientUrl() {
        return new JmsConnectionFactoryFactory(settings).brokerUrl();
    }

    public boolean isActive() {
        EmbeddedActiveMQ server = this.broker;
        return server != null && server.getActiveMQServer() != null && server.getActiveMQServer().isActive();
    }

    /** Whether the broker runs, active or (one of a pair) passive. */
    boolean isRunning() {
        EmbeddedActiveMQ server = this.broker;
        ActiveMQServer running = (server != null) ? server.getActiveMQServer() : null;
        return running != null && (running.isActive() || running.getState() == ActiveMQServer.SERVER_STATE.STARTED);
    }

    /** Whether this broker, one of a pair, and its partner hold the same journal, so either can lose the other. */
    public boolean isPairSynchronized() {
        EmbeddedActiveMQ server = this.broker;
        ActiveMQServer running = (server != null) ? server.getActiveMQServer() : null;
        return running != null && running.isReplicaSync();
    }

    /**
     * What health shows of a broker of a pair: {@code pairRole}, {@code pairPartner}, {@code brokerRunning} (active
     * or passive) and {@code pairSynchronized}; nothing for a lone broker.
     */
    public Map<String, Object> pairDetails() {
        JmsTransportSettings.Pair pair = settings.embedded().pair();
        if (pair == null) {
            return Map.of();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pairRole", pair.role().label());
        details.put("pairPartner", pair.partner());
        details.put("brokerRunning", isRunning());
        details.put("pairSynchronized", isPairSynchronized());
        return details;
    }

    /**
     * A broker of a pair while its process stands by (a WAN gateway's standby): up once it runs and holds its
     * partner's journal, so that the standby can take over without waiting for the partner; {@code brokerActive}
     * and the {@link #pairDetails}. Up, with no details, for a lone broker, which a standby does not run.
     */
    public TransportHealth standbyHealth() {
        Map<String, Object> details = pairDetails();
        if (details.isEmpty()) {
            return TransportHealth.up(Map.of());
        }
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("brokerActive", isActive());
        shown.putAll(details);
        boolean ready = Boolean.TRUE.equals(details.get("brokerRunning"))
                && Boolean.TRUE.equals(details.get("pairSynchronized"));
        return ready ? TransportHealth.up(shown) : TransportHealth.down(shown);
    }

    /** The running Artemis server, for tests that end it as a crash would. */
    @Nullable ActiveMQServer server() {
        EmbeddedActiveMQ server = this.broker;
        return (server != null) ? server.getActiveMQServer() : null;
    }

    /** Messages in a queue, including those delivered but not yet acknowledged; empty if unknown. */
    public OptionalLong messageCount(String queueName) {
        ActiveMQServer server = activeServer();
        Queue queue = (server != null) ? server.locateQueue(queueName) : null;
        return (queue != null) ? OptionalLong.of(queue.getMessageCount()) : OptionalLong.empty();
    }

    boolean bridgeConnected(NodeId peer) {
        ActiveMQServer server = activeServer();
        if (server == null || server.getClusterManager() == null) {
            return false;
        }
        Bridge bridge = server.getClusterManager().getBridges().get(EmbeddedBrokerConfigurationFactory.bridgeName(peer));
        return bridge != null && bridge.isConnected();
    }

    private @Nullable ActiveMQServer activeServer() {
        EmbeddedActiveMQ server = this.broker;
        return (server != null && isActive()) ? server.getActiveMQServer() : null;
    }

    @Override
    public void close() {
        EmbeddedActiveMQ server = this.broker;
        this.broker = null;
        if (server == null) {
            return;
        }
        try {
            if (settings.embedded().pair() != null && server.getActiveMQServer() != null) {
                // An active broker of a pair hands over to its partner before it stops, rather than leaving
                // the partner to find it gone.
                server.getActiveMQServer().stop(true, true);
            }
            server.stop();
            log.info("Stopped embedded broker of node {}", settings.nodeId());
        }
        catch (Exception ex) {
            log.warn("Unable to stop embedded broker of node {} cleanly: {}", settings.nodeId(), ex.toString(), ex);
        }
    }
}

package kr.c4i.gateway.jms;

import static kr.c4i.gateway.jms.BrokerSettingChecks.checkBrokerUrl;
import static kr.c4i.gateway.jms.BrokerSettingChecks.checkQueues;
import static kr.c4i.gateway.jms.BrokerSettingChecks.isBlank;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requireAtLeast;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requirePositive;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requireText;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import org.apache.activemq.artemis.core.config.ConfigurationUtils;
import org.jspecify.annotations.Nullable;

/**
 * Settings of one node's JMS transport. The constructor checks every component and throws one
 * {@link IllegalArgumentException} that names each bad setting, so a misconfigured node fails at
 * start-up rather than at its first message. Start from {@link #of} and the {@code with…} methods. What an operator
 * sets ({@code gateway.jms.*}: the embedded broker's address and data directory, the receive batch size, the bridges'
 * longest retry interval) is given explicitly: its defaults are stated once, in the bridge's properties.
 *
 * @param nodeId this node; its inbox is the queue {@code queuePrefix + nodeId} on its own broker
 * @param mode where the broker runs; when {@code null}, {@link BrokerMode#EXTERNAL} if {@code brokerUrl} is set,
 *        otherwise {@link BrokerMode#EMBEDDED} (see {@link #effectiveMode()})
 * @param brokerUrl URL of the external broker, such as {@code tcp://broker:61616}; unused in embedded mode
 * @param user user this node connects as; on the embedded broker, the only user, allowed everything
 * @param password password of {@code user}
 * @param embedded the embedded broker
 * @param peers the other nodes this node sends to, by node id; default none
 * @param queuePrefix prefix of every node's queue name; default {@code kmtf.node.}
 * @param invalidQueue queue that receives inbound messages that are not valid envelopes; default {@code kmtf.invalid}
 * @param receive how the inbox is consumed
 * @param bridge how store-and-forward bridges reach peers
 * @param tls TLS with mutual authentication on the embedded broker's acceptor, this node's connections to its broker
 *        and its bridges to peers; {@code null} for plain TCP, which a service allows only when an operator says so
 * @param send how outbound messages are put on the broker
 */
public record JmsTransportSettings(NodeId nodeId, @Nullable BrokerMode mode, @Nullable String brokerUrl, String user,
        String password, Embedded embedded, Map<NodeId, Peer> peers, String queuePrefix, String invalidQueue,
        Receive receive, Bridge bridge, @Nullable BrokerTls tls, Send send) {

    public static final String DEFAULT_QUEUE_PREFIX = "kmtf.node.";
    public static final String DEFAULT_INVALID_QUEUE = "kmtf.invalid";

    /**
     * @throws InvalidSettingsException listing every setting that is missing or out of range
     */
    public JmsTransportSettings {
        List<Problem> problems = new ArrayList<>();
        if (nodeId == null) {
            problems.add(new Problem("nodeId", "nodeId must be set"));
        }
        BrokerMode effective = (mode != null) ? mode : deduceMode(brokerUrl);
        if (effective == BrokerMode.EXTERNAL) {
            if (isBlank(brokerUrl)) {
                problems.add(new Problem("brokerUrl", "brokerUrl must be set when mode is external"));
            }
            else {
                checkBrokerUrl("brokerUrl", brokerUrl, problems);
            }
        }
        requireText("user", user, problems);
        requireText("password", password, problems);
        if (embedded == null) {
            problems.add(new Problem("embedded", "embedded must be set"));
        }
        else {
            embedded.check(problems);
            if (embedded.pair() != null && effective == BrokerMode.EXTERNAL) {
                problems.add(new Problem("embedded.pair", "embedded.pair is for an embedded broker; list an external "
                        + "pair's brokers in brokerUrl, such as (tcp://b1:61616,tcp://b2:61616)?ha=true"
                        + "&reconnectAttempts=-1"));
            }
        }
        peers = checkPeers(nodeId, effective, peers, problems);
        checkQueues(queuePrefix, invalidQueue, "node", problems);
        if (receive == null) {
            problems.add(new Problem("receive", "receive must be set"));
        }
        else {
            receive.check(problems);
        }
        if (bridge == null) {
            problems.add(new Problem("bridge", "bridge must be set"));
        }
        else {
            bridge.check(problems);
        }
        BrokerTls.check("tls.", tls, problems);
        if (send == null) {
            problems.add(new Problem("send", "send must be set"));
        }
        else {
            send.check(problems);
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException("Invalid JMS transport settings: ", problems);
        }
    }

    /** Settings that send {@linkplain Send#bundled() in bundles as large as the format allows}. */
    public JmsTransportSettings(NodeId nodeId, @Nullable BrokerMode mode, @Nullable String brokerUrl, String user,
            String password, Embedded embedded, Map<NodeId, Peer> peers, String queuePrefix, String invalidQueue,
            Receive receive, Bridge bridge, @Nullable BrokerTls tls) {
        this(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue, receive, bridge,
                tls, Send.bundled());
    }

    /** Settings in plain TCP (no {@link #tls()}). */
    public JmsTransportSettings(NodeId nodeId, @Nullable BrokerMode mode, @Nullable String brokerUrl, String user,
            String password, Embedded embedded, Map<NodeId, Peer> peers, String queuePrefix, String invalidQueue,
            Receive receive, Bridge bridge) {
        this(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue, receive, bridge,
                null);
    }

    /** An embedded broker, no peers, the default queue names. */
    public static JmsTransportSettings of(NodeId nodeId, String user, String password, Embedded embedded,
            Receive receive, Bridge bridge) {
        return new JmsTransportSettings(nodeId, null, null, user, password, embedded, Map.of(), DEFAULT_QUEUE_PREFIX,
                DEFAULT_INVALID_QUEUE, receive, bridge);
    }

    public JmsTransportSettings withMode(@Nullable BrokerMode mode) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withBrokerUrl(@Nullable String brokerUrl) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withEmbedded(Embedded embedded) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withPeers(Map<NodeId, Peer> peers) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withReceive(Receive receive) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withBridge(Bridge bridge) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withTls(@Nullable BrokerTls tls) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    public JmsTransportSettings withSend(Send send) {
        return new JmsTransportSettings(nodeId, mode, brokerUrl, user, password, embedded, peers, queuePrefix,
                invalidQueue, receive, bridge, tls, send);
    }

    /** The explicit {@link #mode()} if set; otherwise external when a broker URL is set, else embedded. */
    public BrokerMode effectiveMode() {
        return (mode != null) ? mode : deduceMode(brokerUrl);
    }

    /** The queue (and anycast address) of a node: its inbox on its own broker, its outbox for it elsewhere. */
    String queueName(NodeId node) {
        return queuePrefix + node.value();
    }

    /** The user a bridge to this peer connects as: the peer's own, or this node's when the peer sets none. */
    String userFor(Peer peer) {
        return isBlank(peer.user()) ? user : peer.user();
    }

    String passwordFor(Peer peer) {
        return isBlank(peer.password()) ? password : peer.password();
    }

    /** The user the brokers of a pair connect to each other as: the pair's own, or this node's. */
    String clusterUserFor(Pair pair) {
        return isBlank(pair.clusterUser()) ? user : pair.clusterUser();
    }

    String clusterPasswordFor(Pair pair) {
        return isBlank(pair.clusterPassword()) ? password : pair.clusterPassword();
    }

    @Override
    public String toString() {
        return "JmsTransportSettings[nodeId=" + nodeId + ", mode=" + effectiveMode().label() + ", brokerUrl="
                + brokerUrl + ", user=" + user + ", password=******, embedded=" + embedded + ", peers=" + peers
                + ", queuePrefix=" + queuePrefix + ", invalidQueue=" + invalidQueue + ", receive=" + receive
                + ", bridge=" + bridge + ", tls=" + tls + ", send=" + send + "]";
    }

    private static BrokerMode deduceMode(@Nullable String brokerUrl) {
        return isBlank(brokerUrl) ? BrokerMode.EMBEDDED : BrokerMode.EXTERNAL;
    }

    private static Map<NodeId, Peer> checkPeers(@Nullable NodeId self, BrokerMode mode,
            @Nullable Map<NodeId, Peer> peers, List<Problem> problems) {
        if (peers == null) {
            problems.add(new Problem("peers", "peers must be set (an empty map when this node sends to no one)"));
            return Map.of();
        }
        Map<NodeId, Peer> checked = new LinkedHashMap<>();
        peers.forEach((id, peer) -> {
            if (id == null) {
                problems.add(new Problem("peers", "peers must not contain a null node id"));
                return;
            }
            String key = "peers." + id;
            if (id.equals(self)) {
                problems.add(new Problem(key, key + " is this node itself; list only the other nodes"));
            }
            if (peer == null) {
                problems.add(new Problem(key, key + " must be set"));
                return;
            }
            if (isBlank(peer.url())) {
                if (mode == BrokerMode.EMBEDDED) {
                    problems.add(new Problem(key + ".url",
                            key + ".url must be set in embedded mode, where this node bridges to the peer's broker"));
                }
            }
            else {
                checkConnectorUrl(key + ".url", peer.url(), problems);
            }
            checked.put(id, peer);
        });
        return Collections.unmodifiableMap(new TreeMap<>(checked));
    }

    private static void checkConnectorUrl(String name, String url, List<Problem> problems) {
        try {
            ConfigurationUtils.parseConnectorURI(name, url);
        }
        catch (RuntimeException ex) {
            problems.add(new Problem(name,
                    name + " '" + url + "' is not a valid Artemis connector URL: " + ex.getMessage()));
        }
    }

    /**
     * The broker inside the gateway process.
     *
     * @param host address the acceptor binds
     * @param port port of the acceptor
     * @param dataDirectory where journal, bindings, paging and large messages live
     * @param journalSyncTransactional whether a commit waits for the journal to reach the disk; default true, which is
     *        what makes a returned {@code send} survive a power loss
     * @param redeliveryDelay delay before a rolled-back message is delivered again, doubled on each attempt;
     *        default 100 ms
     * @param maxRedeliveryDelay upper bound of that delay; default 5 s
     * @param duplicateIdCacheSize duplicate ids remembered per address to drop resends; default
     *        {@value #DUPLICATE_ID_CACHE_SIZE}
     * @param pair the other broker of this node when the node runs on two machines; {@code null} (the default) for a
     *        lone broker
     */
    public record Embedded(String host, int port, Path dataDirectory, boolean journalSyncTransactional,
            Duration redeliveryDelay, Duration maxRedeliveryDelay, int duplicateIdCacheSize, @Nullable Pair pair) {

        /** A lone broker. */
        public Embedded(String host, int port, Path dataDirectory, boolean journalSyncTransactional,
                Duration redeliveryDelay, Duration maxRedeliveryDelay, int duplicateIdCacheSize) {
            this(host, port, dataDirectory, journalSyncTransactional, redeliveryDelay, maxRedeliveryDelay,
                    duplicateIdCacheSize, null);
        }

        /**
         * Enough for what may come again: a peer's bridge resends what its confirmation window held (1 MiB, some
         * thousand lone messages), a sender the batch whose commit failed; the inbox keeps any older resend once. Each
         * id is a record in the journal until it leaves the cache, and a journal file keeps what it holds until its
         * last record goes: Artemis's 20,000, of bundles of up to 64 KiB, held a gigabyte of journal, which the broker
         * read again and again to compact (docs/benchmarks.md).
         */
        public static final int DUPLICATE_ID_CACHE_SIZE = 2_000;

        /** Where the acceptor listens and where the data lives; defaults for the rest. */
        public static Embedded at(String host, int port, Path dataDirectory) {
            return new Embedded(host, port, dataDirectory, true, Duration.ofMillis(100), Duration.ofSeconds(5),
                    DUPLICATE_ID_CACHE_SIZE);
        }

        /** This broker as one of a pair, or alone when {@code pair} is {@code null}. */
        public Embedded withPair(@Nullable Pair pair) {
            return new Embedded(host, port, dataDirectory, journalSyncTransactional, redeliveryDelay,
                    maxRedeliveryDelay, duplicateIdCacheSize, pair);
        }

        void check(List<Problem> problems) {
            requireText("embedded.host", host, problems);
            if (dataDirectory == null) {
                problems.add(new Problem("embedded.dataDirectory", "embedded.dataDirectory must be set"));
            }
            if (port < 1 || port > 65535) {
                problems.add(new Problem("embedded.port", "embedded.port must be 1..65535, was " + port));
            }
            requirePositive("embedded.redeliveryDelay", redeliveryDelay, problems);
            requirePositive("embedded.maxRedeliveryDelay", maxRedeliveryDelay, problems);
            requireAtLeast("embedded.maxRedeliveryDelay", maxRedeliveryDelay, "embedded.redeliveryDelay",
                    redeliveryDelay, problems);
            if (duplicateIdCacheSize < 1) {
                problems.add(new Problem("embedded.duplicateIdCacheSize",
                        "embedded.duplicateIdCacheSize must be at least 1, was " + duplicateIdCacheSize));
            }
            if (pair != null) {
                pair.check(this, problems);
            }
        }
    }

    /**
     * The embedded broker as one of a primary/backup pair, one on each of the two machines a node runs on: Artemis
     * replication, each broker with a cluster connection to the other. The backup copies the primary's journal
     * (duplicate ids included) and becomes active when it loses the primary; a primary that restarts first looks
     * for an active backup and takes over from it once it has its data again. This node's clients and peers that list
     * both brokers follow the active one (see {@link Peer#url()}). Start the primary first: a backup waits for a
     * primary to copy from, and a backup whose primary is lost for good becomes a primary only by configuration. With
     * TLS, Artemis announces each broker's connector to its partner and to clients that fail over: it names the
     * authorities it trusts instead of carrying a store or password, and each process connects with its own identity
     * ({@link NamedTlsContextFactory}).
     *
     * @param role what this broker is configured as; its partner is configured as the other
     * @param partner the other broker's acceptor as {@code host:port}, such as {@code node-b2:61616}
     * @param host this broker's address as its partner, this node's clients and the peers reach it; default
     *        {@code embedded.host}, which must then not be a wildcard address
     * @param clusterUser user the two brokers connect to each other as; default this node's {@code user}
     * @param clusterPassword password of that user; default this node's {@code password}
     * @param failureCheckPeriod a connection between the brokers, or from this node's clients, that has received
     *        nothing for this long is taken as lost; default 5 s. It bounds how long the backup waits when the
     *        primary's machine is gone without closing its connections; shorter risks taking a long pause for a loss
     * @param connectionTtl how long a broker keeps a silent connection of its partner or of a client; default 15 s
     */
    public record Pair(PairRole role, String partner, @Nullable String host, @Nullable String clusterUser,
            @Nullable String clusterPassword, Duration failureCheckPeriod, Duration connectionTtl) {

        /** This broker as {@code role}, its partner at {@code partner} ({@code host:port}); defaults for the rest. */
        public static Pair of(PairRole role, String partner) {
            return new Pair(role, partner, null, null, null, Duration.ofSeconds(5), Duration.ofSeconds(15));
        }

        /** These settings with this broker reached at {@code host}. */
        public Pair withHost(@Nullable String host) {
            return new Pair(role, partner, host, clusterUser, clusterPassword, failureCheckPeriod, connectionTtl);
        }

        /** The partner's host, without the brackets of an IPv6 address. */
        String partnerHost() {
            return hostPort(partner)[0];
        }

        int partnerPort() {
            return Integer.parseInt(hostPort(partner)[1]);
        }

        /** Where the partner, this node's clients and peers reach this broker (IPv6 without brackets). */
        String hostOf(Embedded embedded) {
            return unbracket(isBlank(host) ? embedded.host().strip() : host.strip());
        }

        void check(Embedded embedded, List<Problem> problems) {
            if (role == null) {
                problems.add(new Problem("embedded.pair.role", "embedded.pair.role must be primary or backup"));
            }
            String[] partnerAddress = isBlank(partner) ? null : hostPort(partner);
            if (partnerAddress == null) {
                problems.add(new Problem("embedded.pair.partner", "embedded.pair.partner '" + partner
                        + "' must be the other broker's host:port, such as node-b2:61616"));
            }
            else if (!isPort(partnerAddress[1])) {
                problems.add(new Problem("embedded.pair.partner", "embedded.pair.partner '" + partner
                        + "' must end in a port 1..65535, such as node-b2:61616"));
            }
            boolean wildcard = embedded.host() != null && BrokerSettingChecks.isWildcardHost(embedded.host());
            if (isBlank(host) && wildcard) {
                problems.add(new Problem("embedded.pair.host", "embedded.pair.host must be set when embedded.host is "
                        + "the wildcard address '" + embedded.host() + "': it is the address the partner, this "
                        + "node's clients and peers reach this broker at"));
            }
            else if (partnerAddress != null && isPort(partnerAddress[1]) && embedded.host() != null
                    && partnerAddress[0].equalsIgnoreCase(hostOf(embedded))
                    && Integer.parseInt(partnerAddress[1]) == embedded.port()) {
                problems.add(new Problem("embedded.pair.partner", "embedded.pair.partner '" + partner
                        + "' is this broker itself; it must be the other broker of the pair"));
            }
            if (isBlank(clusterUser) != isBlank(clusterPassword)) {
                problems.add(new Problem("embedded.pair.clusterUser", "embedded.pair.clusterUser and "
                        + "embedded.pair.clusterPassword must be set together, or neither to use user and password"));
            }
            requirePositive("embedded.pair.failureCheckPeriod", failureCheckPeriod, problems);
            requirePositive("embedded.pair.connectionTtl", connectionTtl, problems);
            requireAtLeast("embedded.pair.connectionTtl", connectionTtl, "embedded.pair.failureCheckPeriod",
                    failureCheckPeriod, problems);
        }

        @Override
        public String toString() {
            return "Pair[role=" + role + ", partner=" + partner + ", host=" + host + ", clusterUser=" + clusterUser
                    + ", clusterPassword=" + (clusterPassword == null ? null : "******") + ", failureCheckPeriod="
                    + failureCheckPeriod + ", connectionTtl=" + connectionTtl + "]";
        }

        /** {@code [host, port]}, or {@code null} when the text is not {@code host:port} (IPv6 in brackets). */
        private static String @Nullable [] hostPort(String text) {
            String value = text.strip();
            int colon = value.lastIndexOf(':');
            if (colon <= 0 || colon == value.length() - 1) {
                return null;
            }
            String host = value.substring(0, colon);
            if (host.startsWith("[") != host.endsWith("]") || (!host.startsWith("[") && host.contains(":"))) {
                return null;
            }
            host = unbracket(host);
            return host.isBlank() ? null : new String[] {host, value.substring(colon + 1)};
        }

        private static String unbracket(String host) {
            return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
        }

        private static boolean isPort(String text) {
            try {
                int port = Integer.parseInt(text);
                return port >= 1 && port <= 65535;
            }
            catch (NumberFormatException ex) {
                return false;
            }
        }
    }

    /**
     * Another node this node sends to.
     *
     * @param url the peer's broker as an Artemis connector URL, such as {@code tcp://node-b:61616}; required in
     *        embedded mode, where this node's broker bridges to it; unused in external mode. A peer whose broker is a
     *        {@linkplain Pair pair} is given both, {@code (tcp://b1:61616,tcp://b2:61616)?ha=true&reconnectAttempts=-1}:
     *        the bridge then follows whichever is active (listing two brokers turns that on by itself, and a bridge
     *        reconnects for ever whatever the URL says)
     * @param user user the bridge connects as; default this node's {@code user}
     * @param password password of that user; default this node's {@code password}
     */
    public record Peer(@Nullable String url, @Nullable String user, @Nullable String password) {

        /** A peer whose broker accepts this node's own credentials. */
        public static Peer at(String url) {
            return new Peer(url, null, null);
        }

        @Override
        public String toString() {
            return "Peer[url=" + url + ", user=" + user + ", password=" + (password == null ? null : "******") + "]";
        }
    }

    /**
     * How outbound messages are put on the broker.
     *
     * @param bundleMaxEnvelopes most envelopes of one precedence for one destination sent as one JMS message (a
     *        bundle), 1 to {@value EnvelopeCodec#BUNDLE_MAX_ENVELOPES}; 1 sends every envelope as a JMS message of its
     *        own, with every field a message property, for consumers that select on those properties
     */
    public record Send(int bundleMaxEnvelopes) {

        /** Bundles as large as the format allows. */
        public static Send bundled() {
            return new Send(EnvelopeCodec.BUNDLE_MAX_ENVELOPES);
        }

        void check(List<Problem> problems) {
            if (bundleMaxEnvelopes < 1 || bundleMaxEnvelopes > EnvelopeCodec.BUNDLE_MAX_ENVELOPES) {
                problems.add(new Problem("send.bundleMaxEnvelopes", "send.bundleMaxEnvelopes must be 1 to "
                        + EnvelopeCodec.BUNDLE_MAX_ENVELOPES + ", was " + bundleMaxEnvelopes));
            }
        }
    }

    /**
     * How the inbox queue is consumed.
     *
     * @param batchSize most messages handed to the handler in one batch and one transaction
     * @param timeout how long the consumer waits for a first message before checking whether to stop; default 1 s
     * @param retryBackoff wait after a handler failure or lost connection, doubled on each failure in a row;
     *        default 500 ms
     * @param maxRetryBackoff upper bound of that wait; default 30 s
     */
    public record Receive(int batchSize, Duration timeout, Duration retryBackoff, Duration maxRetryBackoff) {

        /** The given batch size; defaults for the rest. */
        public static Receive of(int batchSize) {
            return new Receive(batchSize, Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofSeconds(30));
        }

        void check(List<Problem> problems) {
            if (batchSize < 1) {
                problems.add(new Problem("receive.batchSize",
                        "receive.batchSize must be at least 1, was " + batchSize));
            }
            requirePositive("receive.timeout", timeout, problems);
            requirePositive("receive.retryBackoff", retryBackoff, problems);
            requirePositive("receive.maxRetryBackoff", maxRetryBackoff, problems);
            requireAtLeast("receive.maxRetryBackoff", maxRetryBackoff, "receive.retryBackoff", retryBackoff,
                    problems);
        }
    }

    /**
     * How the embedded broker's store-and-forward bridges reach peers. They retry for ever, so messages wait in this
     * node's journal for as long as a peer is away.
     *
     * @param retryInterval wait before reconnecting to a peer; default 500 ms
     * @param retryIntervalMultiplier factor applied to that wait after each failed attempt; default 2.0
     * @param maxRetryInterval upper bound of that wait, so a returning peer is found within it
     * @param confirmationWindowSize bytes sent to a peer before its broker must confirm them; default 1 MiB
     * @param failureCheckPeriod a bridge's connection to a peer that has received nothing for this long is given up
     *        and made again; default 10 s. Shorter finds a restarted peer sooner, but on a narrow lossy link (128
     *        kbit/s, 30% loss: seconds of queue and backed-off retransmissions) tears healthy connections down faster
     *        than each new TLS handshake gets through (docs/results.md, "Compose scenarios")
     * @param connectionTtl how long a peer's broker keeps a bridge's silent connection; default 30 s
     */
    public record Bridge(Duration retryInterval, double retryIntervalMultiplier, Duration maxRetryInterval,
            int confirmationWindowSize, Duration failureCheckPeriod, Duration connectionTtl) {

        /** The given longest wait; defaults for the rest. */
        public static Bridge of(Duration maxRetryInterval) {
            return new Bridge(Duration.ofMillis(500), 2.0, maxRetryInterval, 1024 * 1024, Duration.ofSeconds(10),
                    Duration.ofSeconds(30));
        }

        /** These settings with the given failure check period and connection TTL. */
        public Bridge withLiveness(Duration failureCheckPeriod, Duration connectionTtl) {
            return new Bridge(retryInterval, retryIntervalMultiplier, maxRetryInterval, confirmationWindowSize,
                    failureCheckPeriod, connectionTtl);
        }

        void check(List<Problem> problems) {
            requirePositive("bridge.retryInterval", retryInterval, problems);
            if (!(retryIntervalMultiplier >= 1.0)) {
                problems.add(new Problem("bridge.retryIntervalMultiplier",
                        "bridge.retryIntervalMultiplier must be at least 1.0, was " + retryIntervalMultiplier));
            }
            requirePositive("bridge.maxRetryInterval", maxRetryInterval, problems);
            requireAtLeast("bridge.maxRetryInterval", maxRetryInterval, "bridge.retryInterval", retryInterval,
                    problems);
            // A bridge without confirmations cannot resend what a peer lost in a crash.
            if (confirmationWindowSize < 1) {
                problems.add(new Problem("bridge.confirmationWindowSize",
                        "bridge.confirmationWindowSize must be at least 1 byte, was " + confirmationWindowSize));
            }
            requirePositive("bridge.failureCheckPeriod", failureCheckPeriod, problems);
            requirePositive("bridge.connectionTtl", connectionTtl, problems);
            // A peer's broker that drops a connection before its client has checked it breaks a healthy bridge.
            requireAtLeast("bridge.connectionTtl", connectionTtl, "bridge.failureCheckPeriod", failureCheckPeriod,
                    problems);
        }
    }
}

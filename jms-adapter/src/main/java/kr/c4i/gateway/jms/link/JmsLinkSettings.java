package kr.c4i.gateway.jms.link;

import static kr.c4i.gateway.jms.BrokerSettingChecks.checkBrokerUrl;
import static kr.c4i.gateway.jms.BrokerSettingChecks.checkEmbedded;
import static kr.c4i.gateway.jms.BrokerSettingChecks.checkQueues;
import static kr.c4i.gateway.jms.BrokerSettingChecks.isBlank;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requireAtLeast;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requirePositive;
import static kr.c4i.gateway.jms.BrokerSettingChecks.requireText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.JmsTransportSettings;
import org.jspecify.annotations.Nullable;

/**
 * Settings of one site's {@code jms} WAN link. The constructor checks every component and throws one
 * {@link InvalidSettingsException} naming each bad setting. Start from {@link #of} and the {@code with…} methods.
 *
 * @param site this site; its frames arrive on the queue {@code queuePrefix + site} of its own broker
 * @param brokerUrl this site's own broker when it runs outside the gateway, such as {@code tcp://broker:61616};
 *        {@code null} for the embedded broker
 * @param user user this site's gateway connects to its own broker as; on the embedded broker the only user, which
 *        peers' gateways use too unless they are given other credentials
 * @param password password of {@code user}
 * @param embedded the embedded broker (address, port, data directory); unused with an external broker
 * @param peers the peer sites, each with the broker its frames go to
 * @param queuePrefix prefix of each site's inbound queue; default {@code kmtf.wan.}
 * @param invalidQueue queue on this site's broker that takes inbound messages that are not frames; default
 *        {@code kmtf.wan-invalid}
 * @param budgetBytesPerSecond the WAN budget of this site's link, in bytes per second: the transport windows hold
 *        about one second of it (see {@link #windows()})
 * @param reconnectBackoff wait before reconnecting to a lost peer or own broker, doubled after each failure
 * @param maxReconnectBackoff upper bound of that wait, so a returning peer is found within it
 * @param tls TLS with mutual authentication on the embedded broker's acceptor and on every connection, to this site's
 *        broker and to the peers'; its trust store holds the authorities of this site and of the peer sites;
 *        {@code null} for plain TCP, which a service allows only when an operator says so
 */
public record JmsLinkSettings(SiteId site, @Nullable String brokerUrl, String user, String password,
        JmsTransportSettings.@Nullable Embedded embedded, Map<SiteId, Peer> peers, String queuePrefix,
        String invalidQueue, long budgetBytesPerSecond, Duration reconnectBackoff, Duration maxReconnectBackoff,
        @Nullable BrokerTls tls) {

    public static final String DEFAULT_QUEUE_PREFIX = "kmtf.wan.";
    public static final String DEFAULT_INVALID_QUEUE = "kmtf.wan-invalid";

    /** Below this a window costs a round trip per frame even on a slow link. */
    static final int MIN_WINDOW_BYTES = 1024;

    /**
     * @throws InvalidSettingsException listing every setting that is missing or out of range
     */
    public JmsLinkSettings {
        List<Problem> problems = new ArrayList<>();
        if (site == null) {
            problems.add(new Problem("site", "site must be set"));
        }
        if (brokerUrl != null) {
            checkBrokerUrl("brokerUrl", brokerUrl, problems);
        }
        else if (embedded == null) {
            problems.add(new Problem("embedded", "embedded must be set when brokerUrl is not (embedded broker)"));
        }
        else {
            checkEmbedded(embedded, problems);
        }
        requireText("user", user, problems);
        requireText("password", password, problems);
        peers = checkPeers(site, peers, problems);
        checkQueues(queuePrefix, invalidQueue, "site", problems);
        if (budgetBytesPerSecond < 1) {
            problems.add(new Problem("budgetBytesPerSecond",
                    "budgetBytesPerSecond must be at least 1, was " + budgetBytesPerSecond));
        }
        requirePositive("reconnectBackoff", reconnectBackoff, problems);
        requirePositive("maxReconnectBackoff", maxReconnectBackoff, problems);
        requireAtLeast("maxReconnectBackoff", maxReconnectBackoff, "reconnectBackoff", reconnectBackoff,
                problems);
        BrokerTls.check("tls.", tls, problems);
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException("Invalid JMS link settings: ", problems);
        }
    }

    /** Settings in plain TCP (no {@link #tls()}). */
    public JmsLinkSettings(SiteId site, @Nullable String brokerUrl, String user, String password,
            JmsTransportSettings.@Nullable Embedded embedded, Map<SiteId, Peer> peers, String queuePrefix,
            String invalidQueue, long budgetBytesPerSecond, Duration reconnectBackoff, Duration maxReconnectBackoff) {
        this(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue, budgetBytesPerSecond,
                reconnectBackoff, maxReconnectBackoff, null);
    }

    /** An embedded broker, no peers yet, the default queue names, reconnecting after 500 ms up to 10 s. */
    public static JmsLinkSettings of(SiteId site, String user, String password,
            JmsTransportSettings.Embedded embedded, long budgetBytesPerSecond) {
        return new JmsLinkSettings(site, null, user, password, embedded, Map.of(), DEFAULT_QUEUE_PREFIX,
                DEFAULT_INVALID_QUEUE, budgetBytesPerSecond, Duration.ofMillis(500), Duration.ofSeconds(10));
    }

    public JmsLinkSettings withPeers(Map<SiteId, Peer> peers) {
        return new JmsLinkSettings(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue,
                budgetBytesPerSecond, reconnectBackoff, maxReconnectBackoff, tls);
    }

    public JmsLinkSettings withBrokerUrl(@Nullable String brokerUrl) {
        return new JmsLinkSettings(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue,
                budgetBytesPerSecond, reconnectBackoff, maxReconnectBackoff, tls);
    }

    public JmsLinkSettings withQueues(String queuePrefix, String invalidQueue) {
        return new JmsLinkSettings(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue,
                budgetBytesPerSecond, reconnectBackoff, maxReconnectBackoff, tls);
    }

    public JmsLinkSettings withReconnectBackoff(Duration reconnectBackoff, Duration maxReconnectBackoff) {
        return new JmsLinkSettings(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue,
                budgetBytesPerSecond, reconnectBackoff, maxReconnectBackoff, tls);
    }

    public JmsLinkSettings withTls(@Nullable BrokerTls tls) {
        return new JmsLinkSettings(site, brokerUrl, user, password, embedded, peers, queuePrefix, invalidQueue,
                budgetBytesPerSecond, reconnectBackoff, maxReconnectBackoff, tls);
    }

    /** Whether this site's broker runs inside the gateway. */
    public boolean embeddedBroker() {
        return brokerUrl == null;
    }

    /** The queue (and anycast address) a site's frames arrive on, on that site's broker. */
    public String queueName(SiteId site) {
        return queuePrefix + site.value();
    }

    /**
     * The Artemis windows of the link, each about one second of the budget: the producer window (credits a producer
     * takes ahead of the peer broker), the confirmation window (bytes sent before the peer broker must confirm them)
     * and the consumer window (bytes the receiving consumer buffers). Artemis's default 1 MiB producer window would be
     * a minute of a 128 kbit/s link, a queue a FLASH frame could not overtake.
     */
    public Windows windows() {
        // One second of the budget is the budget in bytes.
        int window = (int) Math.clamp(budgetBytesPerSecond, MIN_WINDOW_BYTES, Integer.MAX_VALUE);
        return new Windows(window, window, window);
    }

    /** The user this site's gateway connects to a peer's broker as: the peer's own, or this site's. */
    String userFor(Peer peer) {
        return isBlank(peer.user()) ? user : peer.user();
    }

    String passwordFor(Peer peer) {
        return isBlank(peer.password()) ? password : peer.password();
    }

    /**
     * The embedded broker as the JMS transport configures it: the site's inbound queue and the invalid queue, one
     * user, a persistent journal, no bridges. The transport's receive and bridge settings do not apply to it.
     */
    JmsTransportSettings brokerSettings() {
        if (embedded == null) {
            throw new IllegalStateException("site " + site + " uses the external broker at " + brokerUrl);
        }
        return new JmsTransportSettings(NodeId.of(site.value()), null, null, user, password, embedded, Map.of(),
                queuePrefix, invalidQueue, JmsTransportSettings.Receive.of(1),
                JmsTransportSettings.Bridge.of(Duration.ofSeconds(1))).withTls(tls);
    }

    @Override
    public String toString() {
        return "JmsLinkSettings[site=" + site + ", brokerUrl=" + brokerUrl + ", user=" + user
                + ", password=******, embedded=" + embedded + ", peers=" + peers + ", queuePrefix=" + queuePrefix
                + ", invalidQueue=" + invalidQueue + ", budgetBytesPerSecond=" + budgetBytesPerSecond
                + ", reconnectBackoff=" + reconnectBackoff + ", maxReconnectBackoff=" + maxReconnectBackoff + ", tls="
                + tls + "]";
    }

    private static Map<SiteId, Peer> checkPeers(@Nullable SiteId self, @Nullable Map<SiteId, Peer> peers,
            List<Problem> problems) {
        if (peers == null) {
            problems.add(new Problem("peers", "peers must be set"));
            return Map.of();
        }
        Map<SiteId, Peer> checked = new TreeMap<>();
        peers.forEach((id, peer) -> {
            if (id == null) {
                problems.add(new Problem("peers", "peers must not contain a null site id"));
                return;
            }
            String key = "peers." + id;
            if (id.equals(self)) {
                problems.add(new Problem(key, key + " is this site itself; list only the other sites"));
            }
            if (peer == null || isBlank(peer.url())) {
                problems.add(new Problem(key + ".url", key + ".url must be set: the broker of site " + id));
                return;
            }
            checkBrokerUrl(key + ".url", peer.url(), problems);
            checked.put(id, peer);
        });
        return Collections.unmodifiableMap(checked);
    }

    /**
     * A peer site's broker, where this site's frames for it go.
     *
     * @param url the peer's broker as an Artemis URL, such as {@code tcp://site-b-gw:61616}
     * @param user user to connect as; default this site's {@code user}
     * @param password password of that user; default this site's {@code password}
     */
    public record Peer(String url, @Nullable String user, @Nullable String password) {

        /** A peer whose broker accepts this site's own credentials. */
        public static Peer at(String url) {
            return new Peer(url, null, null);
        }

        @Override
        public String toString() {
            return "Peer[url=" + url + ", user=" + user + ", password=" + (password == null ? null : "******") + "]";
        }
    }

    /**
     * Artemis flow-control windows, in bytes.
     *
     * @param producerWindowBytes {@code producerWindowSize} of the connections to peers
     * @param confirmationWindowBytes {@code confirmationWindowSize} of the connections to peers; never -1, as the
     *        asynchronous sends' confirmations depend on it
     * @param consumerWindowBytes {@code consumerWindowSize} of the consumer of this site's queue
     */
    public record Windows(int producerWindowBytes, int confirmationWindowBytes, int consumerWindowBytes) {
    }
}

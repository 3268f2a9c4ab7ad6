package kr.c4i.gateway.jms.link;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.ports.LoopbackPorts;
import org.jspecify.annotations.Nullable;

/**
 * Sites whose JMS links each run an embedded broker on a free loopback port, peered with all the others, with data
 * under a test's temporary directory. A site can be closed and opened again on the same port and data, as a
 * restarted gateway would be. Closing closes every link still open.
 */
final class LinkSites implements AutoCloseable {

    static final String USER = "gateway";
    static final String PASSWORD = "s3cret-link-pw";
    static final long BUDGET = 16_000;

    private final Path root;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, JmsWanLink> open = new LinkedHashMap<>();
    private Function<String, @Nullable BrokerTls> tls = (site) -> null;

    LinkSites(Path root, String... sites) {
        this.root = root;
        for (String site : sites) {
            this.ports.put(site, LoopbackPorts.freeTcp());
        }
    }

    /** Each site's TLS settings, for the sites opened from now on; plain TCP without. */
    LinkSites withTls(Function<String, @Nullable BrokerTls> tls) {
        this.tls = tls;
        return this;
    }

    /** Fast reconnects, so a returning site is found within a second. */
    JmsLinkSettings settings(String site) {
        Map<SiteId, JmsLinkSettings.Peer> peers = new LinkedHashMap<>();
        this.ports.forEach((peer, port) -> {
            if (!peer.equals(site)) {
                peers.put(SiteId.of(peer), JmsLinkSettings.Peer.at(url(peer)));
            }
        });
        return JmsLinkSettings.of(SiteId.of(site), USER, PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", this.ports.get(site), this.root.resolve(site)), BUDGET)
                .withPeers(peers)
                .withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                .withTls(this.tls.apply(site));
    }

    JmsWanLink open(String site, RecordingFrameHandler handler, EmbeddedBrokerCustomizer... customizers)
            throws TransportException {
        if (this.open.containsKey(site)) {
            throw new IllegalStateException("site " + site + " is already open");
        }
        JmsWanLink link = new JmsWanLink(settings(site), List.of(customizers));
        this.open.put(site, link);
        link.open(handler);
        return link;
    }

    void close(String site) {
        JmsWanLink link = this.open.remove(site);
        if (link != null) {
            link.close();
        }
    }

    String url(String site) {
        return "tcp://127.0.0.1:" + this.ports.get(site);
    }

    @Override
    public void close() {
        List.copyOf(this.open.keySet()).forEach(this::close);
    }
}

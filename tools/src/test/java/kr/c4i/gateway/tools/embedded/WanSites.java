package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.link.JmsLinkSettings;
import kr.c4i.gateway.jms.link.JmsWanLink;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.wan.WanGatewayApplication;

/**
 * Two real WAN gateways (the wan-gateway application, started as {@code bin/gateway wan} starts it: its own
 * application.yaml, none of db-bridge's auto-configuration) on their defaults but for addresses and credentials, JMS
 * LAN and jms link, each with its own database in one embedded PostgreSQL: site s1 with node a, site s2 with node c
 * (both JMS nodes: a transport each, as a node's bridge uses it). A third site, s3, is only a WAN link that takes
 * gateway 1's frames and never receipts them, and that can send gateway 1 an unreadable frame: so the meters a
 * fault makes (resent and rejected frames) exist as well as those of the traffic.
 */
final class WanSites implements AutoCloseable {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final SiteId S3 = SiteId.of("s3");

    private static final String USER = "gateway";
    private static final String PASSWORD = "wan-sites-" + Long.toHexString(System.nanoTime());
    private static final String MANAGEMENT_PASSWORD = "management-" + Long.toHexString(System.nanoTime());
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dir;
    private final KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final AtomicInteger framesAtS3 = new AtomicInteger();
    private JmsTransport nodeA;
    private JmsWanLink siteS3;
    ConfigurableApplicationContext gateway1;
    ConfigurableApplicationContext gateway2;

    private WanSites(Path dir) {
        this.dir = dir;
    }

    static WanSites start(Path dir) throws Exception {
        WanSites sites = new WanSites(dir);
        try {
            sites.open();
            return sites;
        }
        catch (Exception | Error ex) {
            sites.close();
            throw ex;
        }
    }

    private void open() throws Exception {
        EmbeddedPostgres postgres = remember(EmbeddedPostgres.builder().setDataDirectory(dir.resolve("postgres"))
                .setCleanDataDirectory(true).start());
        int portA = LoopbackPorts.freeTcp();
        int portC = LoopbackPorts.freeTcp();
        int lan1 = LoopbackPorts.freeTcp();
        int lan2 = LoopbackPorts.freeTcp();
        int wan1 = LoopbackPorts.freeTcp();
        int wan2 = LoopbackPorts.freeTcp();
        int wan3 = LoopbackPorts.freeTcp();
        JmsTransport nodeC = node("c", portC, Map.of(NodeId.of("a"), lan2));
        nodeC.subscribe(batch -> { });
        siteS3 = remember(new JmsWanLink(JmsLinkSettings.of(S3, USER, PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", wan3, dir.resolve("wan-s3")), 32_000)
                .withPeers(Map.of(S1, JmsLinkSettings.Peer.at(url(wan1))))
                .withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))));
        siteS3.open(new FrameHandler() {
            @Override
            public void received(SiteId from, byte[] frame) {
                framesAtS3.incrementAndGet();
            }
        });
        gateway2 = gateway(postgres, "s2", lan2, wan2, Map.of("c", portC), Map.of("s1", wan1),
                Map.of("gateway.wan.routes.s3", "s1"));
        Path policy = Files.writeString(dir.resolve("wan-policy.yaml"), "rules:\n  - deny: LOGSITREP\n");
        gateway1 = gateway(postgres, "s1", lan1, wan1, Map.of("a", portA), Map.of("s2", wan2, "s3", wan3),
                Map.of("gateway.wan.receipt-timeout", "2s", "gateway.wan.policy.file", policy.toString()));
        nodeA = node("a", portA, Map.of(NodeId.of("c"), lan1, NodeId.of("d"), lan1));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (siteS3.state(S1) != LinkState.UP || !prometheus(gateway1).contains("gateway_wan_link_up{")
                || prometheus(gateway1).lines().anyMatch(l -> l.startsWith("gateway_wan_link_up{") && l.endsWith(" 0.0"))
                || prometheus(gateway2).lines().anyMatch(l -> l.startsWith("gateway_wan_link_up{") && l.endsWith(" 0.0"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The links between s1, s2 and s3 did not come up within 60 s:\n"
                        + prometheus(gateway1).lines().filter(l -> l.startsWith("gateway_wan_link_up")).toList());
            }
            Thread.sleep(100);
        }
    }

    /**
     * Node a sends {@code count} SITREPs of {@code precedence} to c (site s2) and d (site s3), ids {@code prefix-n}.
     */
    void send(String prefix, int count, Precedence precedence) throws TransportException {
        send(prefix, count, "SITREP", precedence);
    }

    void send(String prefix, int count, String type, Precedence precedence) throws TransportException {
        MessageType messageType = catalogue.find(type).orElseThrow();
        List<Outbound> batch = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            String id = prefix + "-" + i;
            Envelope envelope = new Envelope(id, NodeId.of("a"), type, precedence, "UNCLASSIFIED",
                    Instant.now().truncatedTo(ChronoUnit.MICROS),
                    ("MSGID/" + type + "/WAN/" + id + "//\nNARR/NO CONTACT//\n").getBytes(StandardCharsets.UTF_8));
            batch.add(new Outbound(envelope, messageType, List.of(NodeId.of("c"), NodeId.of("d"))));
        }
        nodeA.send(batch);
    }

    /** Site s3 sends gateway 1 a frame that is no frame. */
    void sendUnreadableFrame() throws TransportException {
        siteS3.send(S1, "not a frame".getBytes(StandardCharsets.UTF_8));
    }

    int framesAtS3() {
        return framesAtS3.get();
    }

    static String prometheus(ConfigurableApplicationContext gateway) throws IOException, InterruptedException {
        HttpResponse<String> response = get(gateway, "/actuator/prometheus");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/actuator/prometheus answered " + response.statusCode());
        }
        return response.body();
    }

    static HttpResponse<String> get(ConfigurableApplicationContext gateway, String path)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl(gateway) + path))
                .header("Authorization", authorization()).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String baseUrl(ConfigurableApplicationContext gateway) {
        return "http://127.0.0.1:" + gateway.getEnvironment().getRequiredProperty("local.management.port");
    }

    static String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString(("user:" + MANAGEMENT_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }

    private ConfigurableApplicationContext gateway(EmbeddedPostgres postgres, String site, int lanPort, int wanPort,
            Map<String, Integer> localNodes, Map<String, Integer> peers, Map<String, String> more) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE gw_" + site);
        }
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", postgres.getJdbcUrl("postgres", "gw_" + site));
        properties.put("spring.datasource.username", "postgres");
        properties.put("management.server.port", "0");
        properties.put("spring.security.user.password", MANAGEMENT_PASSWORD);
        properties.put("gateway.wan.site", site);
        properties.put("gateway.routing.sites.s1", "a");
        properties.put("gateway.routing.sites.s2", "c");
        properties.put("gateway.routing.sites.s3", "d");
        properties.put("gateway.routing.subscriptions.a", "*");
        properties.put("gateway.routing.subscriptions.c", "*");
        properties.put("gateway.routing.subscriptions.d", "*");
        properties.put("gateway.wan.schedule.budget-bits-per-second", "2000000");
        properties.put("gateway.wan.lan.jms.user", USER);
        properties.put("gateway.wan.lan.jms.tls.plain-tcp", "true");
        properties.put("gateway.wan.lan.jms.password", PASSWORD);
        properties.put("gateway.wan.lan.jms.embedded.host", "127.0.0.1");
        properties.put("gateway.wan.lan.jms.embedded.port", String.valueOf(lanPort));
        properties.put("gateway.wan.lan.jms.embedded.data-directory", dir.resolve("lan-" + site).toString());
        localNodes.forEach((node, port) -> properties.put("gateway.wan.lan.jms.peers." + node + ".url", url(port)));
        properties.put("gateway.wan.jms.user", USER);
        properties.put("gateway.wan.jms.tls.plain-tcp", "true");
        // Site s3 is a bare link of the test's own, which seals nothing: the frames cross in clear.
        properties.put("gateway.wan.security.plain", "true");
        properties.put("gateway.wan.jms.password", PASSWORD);
        properties.put("gateway.wan.jms.embedded.host", "127.0.0.1");
        properties.put("gateway.wan.jms.embedded.port", String.valueOf(wanPort));
        properties.put("gateway.wan.jms.embedded.data-directory", dir.resolve("wan-" + site).toString());
        properties.put("gateway.wan.jms.reconnect-backoff", "100ms");
        properties.put("gateway.wan.jms.max-reconnect-backoff", "1s");
        peers.forEach((peer, port) -> properties.put("gateway.wan.jms.peers." + peer + ".url", url(port)));
        properties.putAll(more);
        properties.put("logging.file.name", dir.resolve("gateway-" + site + ".log").toString());
        properties.put("logging.threshold.console", "WARN");
        return remember(new SpringApplicationBuilder(WanGatewayApplication.class)
                .run(WanCommand.arguments(new TreeMap<>(properties))));
    }

    private JmsTransport node(String id, int port, Map<NodeId, Integer> peers) throws Exception {
        Map<NodeId, JmsTransportSettings.Peer> urls = new TreeMap<>();
        peers.forEach((peer, p) -> urls.put(peer, JmsTransportSettings.Peer.at(url(p))));
        JmsTransport transport = remember(new JmsTransport(JmsTransportSettings.of(NodeId.of(id), USER, PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", port, dir.resolve("node-" + id)),
                JmsTransportSettings.Receive.of(100), JmsTransportSettings.Bridge.of(Duration.ofSeconds(1)))
                .withPeers(urls)));
        transport.open();
        return transport;
    }

    private <T extends AutoCloseable> T remember(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        for (AutoCloseable closeable : opened.reversed()) {
            try {
                closeable.close();
            }
            catch (Exception ex) {
                // Closing the rest matters more; the work directory goes with the test.
            }
        }
        opened.clear();
    }

    private static String url(int port) {
        return "tcp://127.0.0.1:" + port;
    }
}

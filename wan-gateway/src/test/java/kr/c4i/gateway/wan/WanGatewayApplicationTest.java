package kr.c4i.gateway.wan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.jdbc.DatabaseOwnedElsewhereException;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.pki.Identity;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.PemFiles;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.wan.store.RelayStore;

/**
 * Two WAN gateway applications as an operator configures them (JMS LAN, jms link), between two real JMS nodes: the
 * message crosses, and each gateway shows its sides' health and its metrics on its management port.
 */
@Timeout(180)
class WanGatewayApplicationTest {

    private static final String PASSWORD = "mgmt-pw";
    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void twoGatewaysRelayBetweenTheirSitesAndReportTheirSides() throws Exception {
        TwoSites sites = twoSites();
        ConfigurableApplicationContext gw1 = sites.gatewayOfS1(Map.of());
        ConfigurableApplicationContext gw2 = sites.gatewayOfS2();
        List<Outbound> outbound = sitrep("a-1");
        Envelope sent = outbound.getFirst().envelope();

        sites.a().send(outbound);

        await().atMost(Duration.ofSeconds(60)).until(() -> sites.inboxOfC().containsKey("a-1"));
        assertThat(sites.inboxOfC().get("a-1")).isEqualTo(sent);
        String health = get(gw2, "/actuator/health");
        for (String side : List.of("lan", "wanLink", "store")) {
            assertThat((String) JsonPath.read(health, "$.components." + side + ".status")).as(side).isEqualTo("UP");
        }
        assertThat((String) JsonPath.read(health, "$.components.wanLink.details.peers.s1.state")).isEqualTo("up");
        assertThat((String) JsonPath.read(health, "$.components.wanLink.details.link.security.mode"))
                .isEqualTo("sealed");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(gw1, "/actuator/prometheus"))
                .contains("gateway_wan_relayed_total{", "direction=\"wan-out\"", "gateway_wan_link_up{",
                        "gateway_wan_store_copies{", "gateway=\"s1\""));
        assertThat(get(gw2, "/actuator/prometheus")).contains("direction=\"lan-out\"",
                "gateway_wan_delivery_latency_seconds");
        // Each gateway's custody log: s1 stored it for s2 and s2 acknowledged it; s2 stored it and its LAN took it,
        // which s2 forwarded to s1, the origin's site, so s1 alone knows where it went.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            String atS1 = get(gw1, "/actuator/custody/a-1");
            assertThat((List<String>) JsonPath.read(atS1, "$.steps[?(@.hop == 's1')].event")).containsExactly(
                    "stored", "acknowledged");
            assertThat((List<String>) JsonPath.read(atS1, "$.steps[?(@.hop == 's2')].event"))
                    .containsExactly("delivered");
            assertThat((String) JsonPath.read(atS1, "$.position")).startsWith("delivered onto site s2's LAN at ");
            String atS2 = get(gw2, "/actuator/custody/a-1");
            assertThat((List<String>) JsonPath.read(atS2, "$.steps[*].event")).containsExactly("stored", "delivered");
            assertThat((String) JsonPath.read(atS2, "$.steps[0].detail")).isEqualTo("from site s1");
            assertThat((String) JsonPath.read(atS2, "$.position")).startsWith("delivered onto site s2's LAN at ");
        });
        assertThat((String) JsonPath.read(get(gw1, "/actuator/custody/a-2"), "$.position"))
                .isEqualTo("not seen here (asked site s1)");
    }

    /**
     * Site s1's gateway as an active/standby pair on one store database (both on this machine, so with the same
     * ports: only the leader opens them): one leads, the other waits and says so; when the leader stops, the standby
     * leads within the lease and relays, and every message reaches c once.
     */
    @Test
    void aSitesPairRelaysThroughOneLeaderAndTheStandbyLeadsOnceTheLeaderStops() throws Exception {
        TwoSites sites = twoSites();
        JmsTransport a = sites.a();
        List<String> inbox = sites.deliveredToC();
        Map<String, Object> pair = Map.of("gateway.wan.pair.enabled", "true");
        ConfigurableApplicationContext leader = sites.gatewayOfS1(pair);
        ConfigurableApplicationContext standby = sites.gatewayOfS1(pair);
        sites.gatewayOfS2();

        await().atMost(Duration.ofSeconds(10)).until(() -> leads(leader));
        assertThat(leads(standby)).as("the second gateway of s1 leads too").isFalse();
        // A gateway leads only with its standby brokers running: they start in a phase before the election's, and
        // nothing may make them depend on it, since a context starts a lifecycle bean's dependencies first.
        assertThat(leader.getBean(RelayStandby.class).getPhase())
                .isLessThan(leader.getBean(LockRegistryLeaderInitiator.class).getPhase());
        assertThat(leader.getBeanFactory().getDependenciesForBean("relayStandby"))
                .doesNotContain("relayLeaderInitiator");
        assertThat((String) JsonPath.read(get(standby, "/actuator/health"), "$.components.store.details.role"))
                .isEqualTo("standby");
        // Both could relay now; the standby's link and store are not its own yet: not down, not empty, unknown.
        String standbyScrape = get(standby, "/actuator/prometheus");
        assertThat(standbyScrape).contains("gateway_wan_pair_ready{gateway=\"s1\",site=\"s1\"} 1.0")
                .contains("gateway_wan_link_up{gateway=\"s1\",site=\"s2\"} NaN")
                .contains("gateway_wan_store_copies{gateway=\"s1\",precedence=\"flash\",route=\"s2\"} NaN");
        a.send(sitrep("a-1"));
        await().atMost(Duration.ofSeconds(60)).until(() -> inbox.contains("a-1"));
        assertThat(get(leader, "/actuator/prometheus")).contains("gateway_wan_pair_ready{gateway=\"s1\",site=\"s1\"} 1.0")
                .contains("gateway_wan_link_up{gateway=\"s1\",site=\"s2\"} 1.0");

        // A leader that hangs mid-renewal holds the lease's row: PostgreSQL must end its transaction for the standby.
        try (Connection session = leader.getBean(DataSource.class).getConnection();
                Statement show = session.createStatement();
                ResultSet timeout = show.executeQuery("SHOW idle_in_transaction_session_timeout")) {
            assertThat(timeout.next()).isTrue();
            assertThat(timeout.getString(1)).isEqualTo("10s");
        }

        long stopped = System.nanoTime();
        leader.close();
        // The issue's bound for a leader's death; a stop hands the lock over at once.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> leads(standby));
        Duration takeover = Duration.ofNanos(System.nanoTime() - stopped);
        a.send(sitrep("a-2"));
        await().atMost(Duration.ofSeconds(60)).until(() -> inbox.contains("a-2"));
        assertThat(inbox).as("c's inbox, after a takeover in %d ms", takeover.toMillis())
                .containsExactlyInAnyOrder("a-1", "a-2");
    }

    /**
     * Node a at site s1 and node c at site s2, each on a real broker, their gateways' LAN and WAN ports, and one
     * PostgreSQL for the gateways' stores; what reaches c, by id and in order of arrival.
     */
    private record TwoSites(WanGatewayApplicationTest test, EmbeddedPostgres postgres, int aPort, int cPort, int lan1,
            int lan2, int wan1, int wan2, JmsTransport a, Map<String, Envelope> inboxOfC, List<String> deliveredToC) {

        /** A gateway of site s1 (one of a pair too, given {@code more}). */
        ConfigurableApplicationContext gatewayOfS1(Map<String, Object> more) throws Exception {
            return test.gateway(postgres, "s1", lan1, wan1, Map.of("a", aPort), Map.of("s2", wan2), more);
        }

        ConfigurableApplicationContext gatewayOfS2() throws Exception {
            return test.gateway(postgres, "s2", lan2, wan2, Map.of("c", cPort), Map.of("s1", wan1));
        }
    }

    private TwoSites twoSites() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        int aPort = LoopbackPorts.freeTcp();
        int cPort = LoopbackPorts.freeTcp();
        int lan1 = LoopbackPorts.freeTcp();
        int lan2 = LoopbackPorts.freeTcp();
        int wan1 = LoopbackPorts.freeTcp();
        int wan2 = LoopbackPorts.freeTcp();
        Map<String, Envelope> inbox = new ConcurrentHashMap<>();
        List<String> delivered = new CopyOnWriteArrayList<>();
        JmsTransport a = node("a", aPort, Map.of(NodeId.of("c"), lan1));
        JmsTransport c = node("c", cPort, Map.of(NodeId.of("a"), lan2));
        c.subscribe(batch -> batch.forEach(e -> {
            inbox.put(e.messageId(), e);
            delivered.add(e.messageId());
        }));
        return new TwoSites(this, postgres, aPort, cPort, lan1, lan2, wan1, wan2, a, inbox, delivered);
    }

    private static boolean leads(ConfigurableApplicationContext gateway) throws Exception {
        return get(gateway, "/actuator/prometheus").lines()
                .anyMatch(line -> line.startsWith("gateway_wan_pair_leader{") && line.endsWith(" 1.0"));
    }

    /** A SITREP from a to c. */
    private static List<Outbound> sitrep(String id) {
        MessageType sitrep = CATALOGUE.find("SITREP").orElseThrow();
        return List.of(new Outbound(new Envelope(id, NodeId.of("a"), "SITREP", sitrep.defaultPrecedence(), "SECRET",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                ("EXER/ULCHI FREEDOM//\nMSGID/SITREP/1군단/" + id + "//").getBytes(StandardCharsets.UTF_8)), sitrep,
                List.of(NodeId.of("c"))));
    }

    @Test
    void aGatewayWithoutItsSiteDoesNotStartAndSaysWhy() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class)
                .run("--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/none", "--management.server.port=0",
                        "--spring.security.user.password=" + PASSWORD)).hasStackTraceContaining("gateway.wan.site must be set");
    }

    @Test
    void aGatewayWithNeitherAnIdentityNorPlainFramesDoesNotStartAndSaysWhy() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class)
                .run("--spring.datasource.url=jdbc:postgresql://127.0.0.1:1/none", "--management.server.port=0",
                        "--spring.security.user.password=" + PASSWORD, "--gateway.wan.site=s1",
                        "--gateway.routing.sites.s1=a", "--gateway.routing.sites.s2=c",
                        "--gateway.wan.jms.peers.s2.url=tcp://127.0.0.1:1",
                        "--gateway.wan.jms.tls.plain-tcp=true", "--gateway.wan.lan.jms.tls.plain-tcp=true"))
                .hasStackTraceContaining("gateway.wan.security.certificate")
                .hasStackTraceContaining("gateway.wan.security.plain=true");
    }

    @Test
    void aGatewayWithNeitherBrokerTlsNorPlainTcpDoesNotStartAndSaysWhatToSet() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);

        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class).run(
                "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                "--spring.datasource.username=postgres", "--management.server.port=0",
                "--spring.security.user.password=" + PASSWORD, "--gateway.wan.site=s1",
                "--gateway.routing.sites.s1=a", "--gateway.routing.sites.s2=c", "--gateway.wan.jms.user=gateway",
                "--gateway.wan.jms.password=pw", "--gateway.wan.jms.peers.s2.url=tcp://127.0.0.1:1",
                "--gateway.wan.lan.jms.user=gateway", "--gateway.wan.lan.jms.password=pw",
                "--gateway.wan.lan.jms.tls.plain-tcp=true", "--gateway.wan.security.plain=true"))
                .hasStackTraceContaining("gateway.wan.jms.tls.key-store: broker connections use TLS unless plain "
                        + "TCP is turned on explicitly")
                .hasStackTraceContaining("tls.plainTcp=true");
    }

    /**
     * A broker pair belongs to a gateway pair: on a lone gateway it is refused, naming the property; a partner that is
     * not {@code host:port} is refused under the gateway's own property name.
     */
    @Test
    void aBrokerPairOnALoneGatewayOrWithABadPartnerDoesNotStartAndSaysWhatToSet() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        List<String> jms = List.of("--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                "--spring.datasource.username=postgres", "--management.server.port=0",
                "--spring.security.user.password=" + PASSWORD, "--gateway.wan.site=s1",
                "--gateway.routing.sites.s1=a", "--gateway.routing.sites.s2=c", "--gateway.wan.jms.user=gateway",
                "--gateway.wan.jms.password=pw", "--gateway.wan.jms.peers.s2.url=tcp://127.0.0.1:1",
                "--gateway.wan.jms.tls.plain-tcp=true", "--gateway.wan.lan.jms.user=gateway",
                "--gateway.wan.lan.jms.password=pw", "--gateway.wan.lan.jms.tls.plain-tcp=true",
                "--gateway.wan.security.plain=true", "--gateway.wan.jms.embedded.host=127.0.0.1",
                "--gateway.wan.lan.jms.embedded.host=127.0.0.1");

        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class).run(with(jms,
                "--gateway.wan.lan.jms.embedded.pair.role=primary",
                "--gateway.wan.lan.jms.embedded.pair.partner=127.0.0.1:2")))
                .hasStackTraceContaining("gateway.wan.lan.jms.embedded.pair is set but gateway.wan.pair.enabled is "
                        + "not");
        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class).run(with(jms,
                "--gateway.wan.pair.enabled=true", "--gateway.wan.jms.embedded.pair.role=backup",
                "--gateway.wan.jms.embedded.pair.partner=no-port")))
                .hasStackTraceContaining("Invalid gateway.wan.jms properties: gateway.wan.jms.embedded.pair.partner: "
                        + "embedded.pair.partner 'no-port'");
    }

    private static String[] with(List<String> arguments, String... more) {
        List<String> all = new ArrayList<>(arguments);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void aGatewayOfAnotherSiteOnAStoreDoesNotStartAndSaysWhoseStoreItIs() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        // Site s1's gateway has run on this store.
        DataSource store = postgres.getPostgresDatabase();
        Flyway.configure().dataSource(store).locations(RelayStore.MIGRATIONS).load().migrate();
        new DatabaseOwner("site", "s1", "gateway.wan.site").claim(store, "The relay store");

        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class).run(
                "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                "--spring.datasource.username=postgres", "--management.server.port=0",
                "--spring.security.user.password=" + PASSWORD, "--gateway.wan.site=s2",
                "--gateway.routing.sites.s1=a", "--gateway.routing.sites.s2=c", "--gateway.wan.jms.user=gateway",
                "--gateway.wan.jms.password=pw", "--gateway.wan.jms.peers.s1.url=tcp://127.0.0.1:1",
                "--gateway.wan.jms.tls.plain-tcp=true", "--gateway.wan.lan.jms.user=gateway",
                "--gateway.wan.lan.jms.password=pw", "--gateway.wan.lan.jms.tls.plain-tcp=true",
                "--gateway.wan.security.plain=true"))
                .hasRootCauseInstanceOf(DatabaseOwnedElsewhereException.class)
                .rootCause().hasMessageContaining("The relay store (postgres) belongs to site s1 since")
                .hasMessageContaining("this process is site s2 (gateway.wan.site)");
        try (Connection c = store.getConnection(); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM relay_copy")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).as("copies written by the refused gateway").isZero();
        }
    }

    @Test
    void aGatewayWithADdsLanAndNeitherDdsSecurityNorPlainDdsDoesNotStartAndNamesBoth() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);

        assertThatThrownBy(() -> new SpringApplicationBuilder(WanGatewayApplication.class).run(
                "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                "--spring.datasource.username=postgres", "--management.server.port=0",
                "--spring.security.user.password=" + PASSWORD, "--gateway.wan.site=s1",
                "--gateway.routing.sites.s1=a", "--gateway.routing.sites.s2=c", "--gateway.wan.jms.user=gateway",
                "--gateway.wan.jms.password=pw", "--gateway.wan.jms.peers.s2.url=tcp://127.0.0.1:1",
                "--gateway.wan.jms.tls.plain-tcp=true", "--gateway.wan.security.plain=true",
                "--gateway.wan.lan.transport=dds"))
                .hasStackTraceContaining("gateway.wan.lan.dds.security.directory: DDS runs under DDS Security")
                .hasStackTraceContaining("gateway.wan.lan.dds.security.plain: or set security.plain=true");
    }

    private ConfigurableApplicationContext gateway(EmbeddedPostgres postgres, String site, int lanPort, int wanPort,
            Map<String, Integer> localNodes, Map<String, Integer> peers) throws Exception {
        return gateway(postgres, site, lanPort, wanPort, localNodes, peers, Map.of());
    }

    /** A gateway of {@code site} on its store database {@code gw_<site>}, created unless a gateway of the site made it. */
    private ConfigurableApplicationContext gateway(EmbeddedPostgres postgres, String site, int lanPort, int wanPort,
            Map<String, Integer> localNodes, Map<String, Integer> peers, Map<String, Object> more) throws Exception {
        try (Connection conn = postgres.getPostgresDatabase().getConnection(); Statement s = conn.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM pg_database WHERE datname = 'gw_" + site + "'")) {
            rs.next();
            if (rs.getLong(1) == 0) {
                s.execute("CREATE DATABASE gw_" + site);
            }
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", postgres.getJdbcUrl("postgres", "gw_" + site));
        properties.put("spring.datasource.username", "postgres");
        properties.put("management.server.port", "0");
        properties.put("spring.security.user.password", PASSWORD);
        properties.put("gateway.wan.site", site);
        properties.put("gateway.routing.sites.s1", "a");
        properties.put("gateway.routing.sites.s2", "c");
        properties.put("gateway.routing.subscriptions.a", "*");
        properties.put("gateway.routing.subscriptions.c", "*");
        // The message is SECRET: what is not cleared gets nothing classified.
        properties.put("gateway.routing.clearances.a", "SECRET");
        properties.put("gateway.routing.clearances.c", "SECRET");
        properties.put("gateway.routing.site-clearances.s1", "SECRET");
        properties.put("gateway.routing.site-clearances.s2", "SECRET");
        properties.put("gateway.wan.schedule.budget-bits-per-second", "2000000");
        properties.put("gateway.wan.lan.jms.user", "gateway");
        properties.put("gateway.wan.lan.jms.tls.plain-tcp", "true");
        properties.put("gateway.wan.lan.jms.password", "s3cret-pw");
        properties.put("gateway.wan.lan.jms.embedded.host", "127.0.0.1");
        properties.put("gateway.wan.lan.jms.embedded.port", lanPort);
        properties.put("gateway.wan.lan.jms.embedded.data-directory", dir.resolve("lan-" + site).toString());
        localNodes.forEach((node, port) -> properties.put("gateway.wan.lan.jms.peers." + node + ".url",
                "tcp://127.0.0.1:" + port));
        properties.put("gateway.wan.jms.user", "gateway");
        properties.put("gateway.wan.jms.tls.plain-tcp", "true");
        properties.put("gateway.wan.jms.password", "s3cret-pw");
        properties.put("gateway.wan.jms.embedded.host", "127.0.0.1");
        properties.put("gateway.wan.jms.embedded.port", wanPort);
        properties.put("gateway.wan.jms.embedded.data-directory", dir.resolve("wan-" + site).toString());
        peers.forEach((peer, port) -> properties.put("gateway.wan.jms.peers." + peer + ".url",
                "tcp://127.0.0.1:" + port));
        properties.putAll(security(site, peers.keySet()));
        properties.putAll(more);
        // As arguments: builder properties are mere defaults, below the application's own yaml.
        ConfigurableApplicationContext context = new SpringApplicationBuilder(WanGatewayApplication.class)
                .run(properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                        .toArray(String[]::new));
        opened.add(context);
        return context;
    }

    /**
     * The frames sealed (docs/wan-gateway.md, "Security"): each gateway's identity from its site's authority, both
     * authorities trusted, the peer gateways' certificates, all as PEM files.
     */
    private Map<String, Object> security(String site, Set<String> peers) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> authorities = new ArrayList<>();
        for (String each : AUTHORITIES.keySet()) {
            Path authority = dir.resolve(each + "-ca.crt");
            PemFiles.writeCertificate(authority, AUTHORITIES.get(each).certificate());
            authorities.add(authority.toString());
            Path certificate = dir.resolve("gw-" + each + ".crt");
            PemFiles.writeCertificate(certificate, GATEWAYS.get(each).certificate());
            if (each.equals(site)) {
                Path key = dir.resolve("gw-" + each + ".key");
                PemFiles.writePrivateKey(key, GATEWAYS.get(each).privateKey());
                properties.put("gateway.wan.security.certificate", certificate.toString());
                properties.put("gateway.wan.security.private-key", key.toString());
            }
            else if (peers.contains(each)) {
                properties.put("gateway.wan.security.peers." + each, certificate.toString());
            }
        }
        properties.put("gateway.wan.security.trusted-authorities", String.join(",", authorities));
        return properties;
    }

    private static final Map<String, SiteAuthority> AUTHORITIES = Map.of(
            "s1", SiteAuthority.create("s1", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY),
            "s2", SiteAuthority.create("s2", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY));
    private static final Map<String, Identity> GATEWAYS = Map.of(
            "s1", AUTHORITIES.get("s1").issue(IdentityRequest.loopback("gw-s1"), Duration.ofDays(1)),
            "s2", AUTHORITIES.get("s2").issue(IdentityRequest.loopback("gw-s2"), Duration.ofDays(1)));

    private static String get(ConfigurableApplicationContext context, String path) throws Exception {
        String port = context.getEnvironment().getProperty("local.management.port");
        String credential = Base64.getEncoder().encodeToString(("user:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + path)).header("Authorization", "Basic " + credential).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            return response.body();
        }
    }

    private JmsTransport node(String id, int port, Map<NodeId, Integer> peers) throws Exception {
        Map<NodeId, JmsTransportSettings.Peer> urls = new java.util.TreeMap<>();
        peers.forEach((peer, p) -> urls.put(peer, JmsTransportSettings.Peer.at("tcp://127.0.0.1:" + p)));
        JmsTransport transport = new JmsTransport(JmsTransportSettings.of(NodeId.of(id), "gateway", "s3cret-pw",
                JmsTransportSettings.Embedded.at("127.0.0.1", port, dir.resolve(id)),
                JmsTransportSettings.Receive.of(100), JmsTransportSettings.Bridge.of(Duration.ofSeconds(1)))
                .withPeers(urls));
        opened.add(transport);
        transport.open();
        return transport;
    }
}

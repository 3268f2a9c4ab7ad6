package kr.c4i.gateway.deploy.docker;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.postgresql.PostgreSQLContainer;

import kr.c4i.gateway.interfacedb.InboxRow;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The delivery contract across the WAN on the images docker-compose.yml runs: a message inserted into node a's outbox
 * (site s1) arrives once in node c's inbox (site s2), through site s1's WAN gateway, the WAN link and site s2's, each
 * node and each gateway beside its own PostgreSQL, as in docker-compose.yml, on the images {@code bin/images} builds.
 * JMS LAN with the jms link, and DDS LAN (a domain per site) with the dds link. Plain, chosen explicitly: the secured
 * stack is {@link ComposeStackIT}'s. Runs with {@code -Pdocker} (bin/test adds it where an engine answers), and
 * without an engine it fails rather than skips.
 */
class WanRelayContractIT {

    private static final String SECRET = UUID.randomUUID().toString();

    @ParameterizedTest(name = "{0} LAN, {1} link")
    @CsvSource({ "jms, jms", "dds, dds" })
    void aMessageFromAAtSiteS1ArrivesOnceInCsInboxAtSiteS2(String transport, String link) throws SQLException {
        List<AutoCloseable> started = new ArrayList<>();
        try (Network network = Network.newNetwork()) {
            // Each tier started together: the services wait for nothing but their own database (bridges and links
            // retry their peers).
            PostgreSQLContainer databaseA = database(network, "postgres-a", "ifdb");
            PostgreSQLContainer databaseC = database(network, "postgres-c", "ifdb");
            start(started, databaseA, databaseC, database(network, "postgres-s1", "wanstore"),
                    database(network, "postgres-s2", "wanstore"));
            start(started, gateway(network, "s1", "s2", Map.of("A", "node-a"), transport, link, 1),
                    gateway(network, "s2", "s1", Map.of("C", "node-c"), transport, link, 2),
                    node(network, "c", Map.of("A", "wan-gateway-s2"), transport, 2),
                    node(network, "a", Map.of("C", "wan-gateway-s1"), transport, 1));
            InterfaceDatabaseClient outboxA = client(databaseA);
            InterfaceDatabaseClient inboxC = client(databaseC);
            String body = new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid("SITREP", "1CORPS", "1")
                    .set("DTG", "211430ZNOV2026").freeText("NARR", "NO CONTACT / ROUTE CLEAR").build().render();

            outboxA.insert("SITREP", body);

            await().atMost(Duration.ofSeconds(120)).until(() -> outboxA.sentCount() == 1 && inboxC.inboxCount() == 1);
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> inboxC.inboxCount() == 1);
            List<InboxRow> inbox = inboxC.inbox();
            assertThat(inbox).singleElement().satisfies(row -> {
                assertThat(row.originNode()).isEqualTo("a");
                assertThat(row.kmtfType()).isEqualTo("SITREP");
            });
            assertThat(outboxA.quarantineCount()).isZero();
        }
        finally {
            for (AutoCloseable container : started.reversed()) {
                try {
                    container.close();
                }
                catch (Exception ex) {
                    // the network goes anyway
                }
            }
        }
    }

    private static void start(List<AutoCloseable> started, GenericContainer<?>... containers) {
        started.addAll(List.of(containers));
        Startables.deepStart(containers).join();
    }

    private static PostgreSQLContainer database(Network network, String alias, String name) {
        return new PostgreSQLContainer(LocalImages.POSTGRES).withDatabaseName(name).withUsername("gateway").withPassword(SECRET)
                .withNetwork(network).withNetworkAliases(alias);
    }

    /** Site s1: a; site s2: c; both subscribe to everything (a message never returns to its origin). */
    private static Map<String, String> routing() {
        return Map.of("GATEWAY_ROUTING_SUBSCRIPTIONS_A", "*", "GATEWAY_ROUTING_SUBSCRIPTIONS_C", "*");
    }

    /** A node as docker-compose.yml starts one: its remote peer at its site's gateway, its site's DDS domain. */
    private static GenericContainer<?> node(Network network, String id, Map<String, String> peers, String transport,
            int domain) {
        Map<String, String> env = new HashMap<>(routing());
        env.putAll(Map.of("GATEWAY_NODE_ID", id, "GATEWAY_NODE_TRANSPORT", transport,
                "GATEWAY_DDS_DOMAINID", String.valueOf(domain),
                "GATEWAY_JMS_USER", "gateway", "GATEWAY_JMS_PASSWORD", SECRET,
                "SPRING_DATASOURCE_URL", "jdbc:postgresql://postgres-" + id + ":5432/ifdb",
                "SPRING_DATASOURCE_USERNAME", "gateway", "SPRING_DATASOURCE_PASSWORD", SECRET,
                "SPRING_SECURITY_USER_PASSWORD", SECRET));
        env.putAll(Map.of("GATEWAY_JMS_TLS_PLAINTCP", "true", "GATEWAY_DDS_SECURITY_PLAIN", "true"));
        peers.forEach((peer, host) -> env.put("GATEWAY_JMS_PEERS_" + peer + "_URL", "tcp://" + host + ":61616"));
        return new GenericContainer<>(LocalImages.NODE).withNetwork(network).withNetworkAliases("node-" + id).withEnv(env)
                .withExposedPorts(8081)
                .withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("node-" + id)))
                .waitingFor(Wait.forHttp("/actuator/health/readiness").forPort(8081)
                        .withStartupTimeout(LocalImages.SERVICE_STARTUP));
    }

    /** A site's WAN gateway as docker-compose.yml starts one, its peer by name (one network here, no WAN of its own). */
    private static GenericContainer<?> gateway(Network network, String site, String peer, Map<String, String> lanPeers,
            String transport, String link, int domain) {
        Map<String, String> env = new HashMap<>(routing());
        env.putAll(Map.of("GATEWAY_ROUTING_SITES_S1", "a", "GATEWAY_ROUTING_SITES_S2", "c",
                "GATEWAY_WAN_SITE", site, "GATEWAY_WAN_LAN_TRANSPORT", transport, "GATEWAY_WAN_LINK", link,
                "GATEWAY_WAN_LAN_DDS_DOMAINID", String.valueOf(domain), "GATEWAY_WAN_DDS_DOMAINID", "100"));
        env.putAll(Map.of("GATEWAY_WAN_LAN_JMS_USER", "gateway", "GATEWAY_WAN_LAN_JMS_PASSWORD", SECRET,
                "GATEWAY_WAN_JMS_USER", "wan", "GATEWAY_WAN_JMS_PASSWORD", SECRET,
                "GATEWAY_WAN_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL",
                "tcp://wan-gateway-" + peer + ":61716",
                "GATEWAY_WAN_DDS_PEERS_" + peer.toUpperCase(Locale.ROOT), "wan-gateway-" + peer,
                "SPRING_DATASOURCE_URL", "jdbc:postgresql://postgres-" + site + ":5432/wanstore",
                "SPRING_DATASOURCE_USERNAME", "gateway", "SPRING_DATASOURCE_PASSWORD", SECRET,
                "SPRING_SECURITY_USER_PASSWORD", SECRET));
        env.putAll(Map.of("GATEWAY_WAN_SECURITY_PLAIN", "true", "GATEWAY_WAN_JMS_TLS_PLAINTCP", "true",
                "GATEWAY_WAN_LAN_JMS_TLS_PLAINTCP", "true", "GATEWAY_WAN_LAN_DDS_SECURITY_PLAIN", "true"));
        lanPeers.forEach((node, host) -> env.put("GATEWAY_WAN_LAN_JMS_PEERS_" + node + "_URL", "tcp://" + host + ":61616"));
        return new GenericContainer<>(LocalImages.WAN_GATEWAY).withNetwork(network).withNetworkAliases("wan-gateway-" + site)
                .withEnv(env).withExposedPorts(8091)
                .withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("wan-gateway-" + site)))
                .waitingFor(Wait.forHttp("/actuator/health/readiness").forPort(8091)
                        .withStartupTimeout(LocalImages.SERVICE_STARTUP));
    }

    private static InterfaceDatabaseClient client(PostgreSQLContainer database) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(database.getJdbcUrl());
        dataSource.setUser(database.getUsername());
        dataSource.setPassword(database.getPassword());
        return new InterfaceDatabaseClient(dataSource);
    }
}

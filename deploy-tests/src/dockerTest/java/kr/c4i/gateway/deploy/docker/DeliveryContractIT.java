package kr.c4i.gateway.deploy.docker;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
 * The delivery contract on the images docker-compose.yml runs: a message inserted into node a's outbox arrives
 * once in node b's inbox, each node the image {@code bin/images} builds (stage db-bridge of
 * {@code deploy/docker/Dockerfile}) beside its own PostgreSQL (the image built from Debian's package), on one Docker
 * network, over JMS (each node's embedded broker) and over DDS. Plain, chosen explicitly as a deployment must: the
 * secured stack is {@link ComposeStackIT}'s. Runs with {@code -Pdocker} (bin/test adds it where an engine answers),
 * and without an engine it fails rather than skips.
 */
class DeliveryContractIT {

    private static final String SECRET = UUID.randomUUID().toString();

    @ParameterizedTest
    @ValueSource(strings = { "jms", "dds" })
    void aMessageInsertedIntoAsOutboxArrivesOnceInBsInbox(String transport) throws SQLException {
        try (Network network = Network.newNetwork();
                PostgreSQLContainer databaseA = database(network, "postgres-a");
                PostgreSQLContainer databaseB = database(network, "postgres-b")) {
            // Started together: what they start with does not depend on each other (a bridge retries its peer).
            Startables.deepStart(databaseA, databaseB).join();
            try (GenericContainer<?> nodeA = node(network, "a", "b", transport);
                    GenericContainer<?> nodeB = node(network, "b", "a", transport)) {
                Startables.deepStart(nodeA, nodeB).join();
                InterfaceDatabaseClient outboxA = client(databaseA);
                InterfaceDatabaseClient inboxB = client(databaseB);
                String body = new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid("SITREP", "1CORPS", "1")
                        .set("DTG", "211430ZNOV2026").freeText("NARR", "NO CONTACT / ROUTE CLEAR").build().render();

                outboxA.insert("SITREP", body);

                await().atMost(Duration.ofSeconds(60)).until(() -> outboxA.sentCount() == 1 && inboxB.inboxCount() == 1);
                // Once, not at least once: it stays one row while the nodes go on running.
                await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> inboxB.inboxCount() == 1);
                List<InboxRow> inbox = inboxB.inbox();
                assertThat(inbox).singleElement().satisfies(row -> {
                    assertThat(row.originNode()).isEqualTo("a");
                    assertThat(row.kmtfType()).isEqualTo("SITREP");
                });
                assertThat(outboxA.quarantineCount()).isZero();
            }
        }
    }

    private static PostgreSQLContainer database(Network network, String alias) {
        return new PostgreSQLContainer(LocalImages.POSTGRES).withDatabaseName("ifdb").withUsername("gateway").withPassword(SECRET)
                .withNetwork(network).withNetworkAliases(alias);
    }

    /** A node as docker-compose.yml starts one: the same image, variables and readiness. */
    private static GenericContainer<?> node(Network network, String id, String peer, String transport) {
        return new GenericContainer<>(LocalImages.NODE)
                .withNetwork(network)
                .withNetworkAliases("node-" + id)
                .withEnv(Map.ofEntries(
                        Map.entry("GATEWAY_NODE_ID", id),
                        Map.entry("GATEWAY_NODE_TRANSPORT", transport),
                        // Every node has the same routing table.
                        Map.entry("GATEWAY_ROUTING_SUBSCRIPTIONS_A", "*"),
                        Map.entry("GATEWAY_ROUTING_SUBSCRIPTIONS_B", "*"),
                        Map.entry("GATEWAY_JMS_USER", "gateway"),
                        Map.entry("GATEWAY_JMS_PASSWORD", SECRET),
                        Map.entry("GATEWAY_JMS_TLS_PLAINTCP", "true"),
                        Map.entry("GATEWAY_DDS_SECURITY_PLAIN", "true"),
                        Map.entry("GATEWAY_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL", "tcp://node-" + peer + ":61616"),
                        Map.entry("SPRING_DATASOURCE_URL", "jdbc:postgresql://postgres-" + id + ":5432/ifdb"),
                        Map.entry("SPRING_DATASOURCE_USERNAME", "gateway"),
                        Map.entry("SPRING_DATASOURCE_PASSWORD", SECRET),
                        Map.entry("SPRING_SECURITY_USER_PASSWORD", SECRET)))
                .withExposedPorts(8081)
                .withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("node-" + id)))
                .waitingFor(Wait.forHttp("/actuator/health/readiness").forPort(8081)
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

package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.wan.store.RelayStore;

/**
 * {@code gateway trace} against a node's interface database and a site's relay store, each with its services' own
 * migrations and the steps their custody logs would hold: a message in both, one in neither, a database that is not
 * there and a URL that is not one.
 */
class TraceCommandTest {

    private static EmbeddedPostgres postgres;
    private static String nodeA;
    private static String siteS1;
    private static String nodeC;

    @BeforeAll
    static void databases() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        nodeA = database("node_a", "classpath:db/migration", "node", "a");
        siteS1 = database("gw_s1", RelayStore.MIGRATIONS, "site", "s1");
        // As a's outbox and s1's store logged it: sent to c (at s2) through the site's gateway, then stored for s2.
        log(nodeA, new CustodyLog("a", "jms"), steps -> steps.add(CustodyEvent.SENT, "m-1", List.of("c"),
                Precedence.FLASH, null));
        log(siteS1, new CustodyLog("s1", "norm"), steps -> steps.add(CustodyEvent.STORED, "m-1", List.of("s2"),
                Precedence.FLASH, "from this site's LAN"));
        // As c's inbox keeps m-2, which came from a through s1 and s2: the trace names sites c's operator cannot ask.
        nodeC = database("node_c", "classpath:db/migration", "node", "c");
        log(nodeC, new CustodyLog("c", "dds"), steps -> steps.add(CustodyEvent.DELIVERED, "m-2", List.of("a"),
                Precedence.FLASH, null));
        try (Connection c = postgres.getDatabase("postgres", "node_c").getConnection();
                Statement s = c.createStatement()) {
            s.execute("INSERT INTO inbox (message_id, origin_node, kmtf_type, precedence, classification, body, "
                    + "created_at, trace, received_at, transport) VALUES ('m-2', 'a', 'SITREP', 'FLASH', "
                    + "'UNCLASSIFIED', '\\x00', '2026-11-26T12:03:04.100Z', 'node a sent +3ms; site s1 relayed +17ms; "
                    + "site s2 relayed +340ms', '2026-11-26T12:03:04.452Z', 'dds')");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void aMessageBothLoggedIsEveryStepInOrderAndTheLastPosition() {
        CliDriver.Result r = CliDriver.run("trace", "m-1", "--database", nodeA, "--database", siteS1, "--user",
                "postgres");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.OK.code());
        List<String> lines = r.out().lines().toList();
        assertThat(lines.getFirst()).as(r.toString()).isEqualTo("Message m-1, as node a (" + nodeA + "), site s1 ("
                + siteS1 + ") logged it:");
        assertThat(lines.get(1)).as(r.toString())
                .matches("TIME \\(UTC\\) +WHERE +STEP +PEER +LINK +PRECEDENCE +DETAIL");
        assertThat(lines.get(2)).as(r.toString()).matches("\\S+Z +node a +sent +c +jms +FLASH +-");
        assertThat(lines.get(3)).as(r.toString()).matches("\\S+Z +site s1 +stored +s2 +norm +FLASH +from this "
                + "site's LAN");
        assertThat(lines.getLast()).as(r.toString()).matches("Last known position: stored at gateway s1 since "
                + "\\S+Z, not yet acknowledged by s2; not yet seen at c");
        assertThat(r.err()).as(r.toString()).isEmpty();
    }

    @Test
    void aMessageInAnInboxShowsTheHopsItCarriedThroughSitesNotAsked() {
        CliDriver.Result r = CliDriver.run("trace", "m-2", "--database", nodeC, "--user", "postgres");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.OK.code());
        List<String> lines = r.out().lines().toList();
        int hops = lines.indexOf("Hops it carried into node c's inbox:");
        assertThat(hops).as(r.toString()).isPositive();
        assertThat(lines.subList(hops + 1, hops + 6)).as(r.toString()).satisfiesExactly(
                heading -> assertThat(heading).matches("TIME \\(UTC\\) +WHERE +ACTION"),
                a -> assertThat(a).matches(" +2026-11-26T12:03:04.103Z +node a +sent"),
                s1 -> assertThat(s1).matches(" +2026-11-26T12:03:04.117Z +site s1 +relayed"),
                s2 -> assertThat(s2).matches(" +2026-11-26T12:03:04.440Z +site s2 +relayed"),
                c -> assertThat(c).matches(" +2026-11-26T12:03:04.452Z +node c +delivered"));
        assertThat(lines.getLast()).as(r.toString()).startsWith("Last known position: ");
    }

    @Test
    void aMessageNoneLoggedIsNotSeenHereWithTheDatabasesAsked() {
        CliDriver.Result r = CliDriver.run("trace", "m-404", "--database", nodeA, "--database", siteS1,
                "--user", "postgres");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.OK.code());
        assertThat(r.out()).as(r.toString()).isEqualTo("Message m-404: not seen here (asked node a (" + nodeA
                + "), site s1 (" + siteS1 + "))\n");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsOneLineAndTheOthersStillAnswer() {
        String away = "jdbc:postgresql://127.0.0.1:1/ifdb";

        CliDriver.Result r = CliDriver.run("trace", "m-1", "--database", away, "--database", nodeA, "--user",
                "postgres");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.INCOMPLETE.code());
        assertThat(r.err().lines().toList()).as(r.toString()).singleElement().asString()
                .startsWith("trace: unable to read the custody log of " + away + ": Connection to 127.0.0.1:1 refused");
        assertThat(r.out()).as(r.toString()).contains("Last known position: in node a's broker for c since ");
    }

    @Test
    void aPasswordInAUrlIsNeverShown() {
        String away = "jdbc:postgresql://127.0.0.1:1/ifdb?password=s3cret&connectTimeout=2";

        CliDriver.Result r = CliDriver.run("trace", "m-1", "--database", away, "--database",
                nodeA + "?user=postgres&password=s3cret");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.INCOMPLETE.code());
        assertThat(r.out() + r.err()).as(r.toString()).doesNotContain("s3cret")
                .contains("jdbc:postgresql://127.0.0.1:1/ifdb?connectTimeout=2: ")
                .contains("node a (" + nodeA + "?user=postgres)");
    }

    @Test
    void aUrlThatIsNotPostgresIsAUsageError() {
        CliDriver.Result r = CliDriver.run("trace", "m-1", "--database", "postgres://node-a/ifdb");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).as(r.toString()).contains("'postgres://node-a/ifdb' is not a PostgreSQL JDBC URL")
                .contains("See 'gateway trace --help'.");
        assertThat(CliDriver.run("trace", "m-1").err()).contains("Missing required option: '--database=JDBC-URL'");
    }

    /** A database created, migrated as the service migrates it and claimed by its node or site; its JDBC URL. */
    private static String database(String name, String migrations, String kind, String owner) throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        DataSource dataSource = postgres.getDatabase("postgres", name);
        Flyway.configure().dataSource(dataSource).locations(migrations).load().migrate();
        new DatabaseOwner(kind, owner, "test").claim(dataSource, name);
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + name;
    }

    private static void log(String url, CustodyLog custody, java.util.function.Consumer<CustodyLog.Entries> steps)
            throws SQLException {
        String name = url.substring(url.lastIndexOf('/') + 1);
        Transactions.durable(postgres.getDatabase("postgres", name), tx -> {
            CustodyLog.Entries entries = custody.entries();
            steps.accept(entries);
            entries.write(tx);
            return null;
        });
    }
}

package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tools.embedded.DashboardBrowser.Custody;

/**
 * The built-in dashboard page in a real browser ({@link DashboardBrowser}), against a running node under load: the
 * charts are drawn, their data is live (the publish rate's points change between two reads), the search box says
 * where a message is (ids with markup and slashes shown as they are, a failed request one line, the charts going on)
 * and a screenshot is kept in target/.
 */
class DashboardPageBrowserTest {

    private static final String TIME = "\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z";

    @TempDir
    Path work;

    @Test
    void theChartsShowTheNodesLiveFigures() throws Exception {
        DashboardBrowser.assertInstalled();

        ExecutorService load = Executors.newSingleThreadExecutor();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(TransportKind.JMS, 2, work, work.resolve("gateway.log"),
                true)) {
            EmbeddedNode publisher = cluster.publisher();
            LoadDriver driver = new LoadDriver(new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", 0, false, 11),
                    publisher.database());
            // Long enough to outlast the test at a rate the two cores keep up with; bad rows fill the quarantine chart.
            Future<?> loading = load.submit(() -> {
                driver.drive(200_000, 150, 50);
                return null;
            });
            try (DashboardBrowser browser = DashboardBrowser.open(DemoCommand.dashboardUrl(publisher),
                    Scrape.authorization(publisher))) {
                List<String> titles = browser.chartTitles("db-bridge dashboard", 5);
                assertThat(titles).contains("Outbox backlog", "Publish and delivery rates",
                        "End-to-end latency (origin outbox to inbox here)", "Quarantined outbox rows by reason",
                        "JVM memory used");

                // Live: messages are being published, and the line moves on between two reads.
                browser.awaitLive("Publish and delivery rates", "published");
                assertThat(loading).as("the load still runs while the page is read").isNotDone();
                // The bad rows' quarantine reasons appear as lines of their own.
                await().atMost(Duration.ofSeconds(30)).until(() -> (Long) browser.script("""
                        const chart = Chart.getChart(document.querySelector(
                            'canvas[data-title="Quarantined outbox rows by reason"]'));
                        return chart.data.datasets.length;""") > 0);
                browser.assertUpdated();

                // Where is message X, for one that b received: a sent it, over JMS, into its broker.
                String delivered = await().atMost(Duration.ofSeconds(30)).until(
                        () -> firstInInbox(cluster.receivers().getFirst()), id -> id != null);
                Custody found = browser.ask(delivered);
                assertThat(found.messageId()).isEqualTo(delivered);
                assertThat(found.error()).isNull();
                assertThat(found.position()).startsWith("in node a's broker for b since ");
                assertThat(found.rows()).isNotEmpty().allSatisfy(row -> assertThat(row).hasSize(7));
                assertThat(found.rows().getFirst().subList(1, 5)).containsExactly("node a", "sent", "b", "jms");
                assertThat(found.rows().getFirst().getFirst()).matches(TIME);

                Custody unknown = browser.ask("no-such-message");
                assertThat(unknown.position()).isEqualTo("not seen here (asked node a)");
                assertThat(unknown.rows()).isEmpty();

                // Message ids are the applications' own: markup and slashes are shown as they are, never as markup.
                KmtfLoadGenerator messages = new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", 0, false, 12);
                for (String id : List.of("<b>x</b>", "a/b")) {
                    insert(publisher, id, messages.next());
                    Custody odd = await().atMost(Duration.ofSeconds(30)).until(() -> browser.ask(id),
                            answer -> !answer.rows().isEmpty());
                    assertThat(odd.messageId()).isEqualTo(id);
                    assertThat(odd.position()).startsWith("in node a's broker for b since ");
                    assertThat(odd.foreignElements()).as("elements made from the data").isZero();
                }
                Custody markup = browser.ask("<img src=x onerror=\"document.title='injected'\">");
                assertThat(markup.messageId()).isEqualTo("<img src=x onerror=\"document.title='injected'\">");
                assertThat(markup.position()).startsWith("not seen here");
                assertThat(markup.foreignElements()).isZero();

                // A request that fails (the listener refuses these characters in a path) is one line; the charts go on.
                for (String id : List.of("100%", "a;b", "a\\b")) {
                    Custody refused = browser.ask(id);
                    assertThat(refused.position()).isNull();
                    assertThat(refused.error()).doesNotContain("\n")
                            .startsWith("cannot ask where the message is: the custody endpoint answered 400")
                            .endsWith("bin/gateway trace takes any id)");
                }
                assertThat(browser.ask("a/../b").error()).startsWith("cannot ask for this id in a URL");
                browser.awaitLive("Publish and delivery rates", "published");
                browser.assertUpdated();
                assertThat(browser.script("return document.title")).isEqualTo("db-bridge dashboard");

                browser.ask(delivered);
                browser.screenshot("dashboard-node-a.png");
            }
            // The receiver's page also shows the hops the message carried into its inbox.
            EmbeddedNode receiver = cluster.receivers().getFirst();
            try (DashboardBrowser browser = DashboardBrowser.open(DemoCommand.dashboardUrl(receiver),
                    Scrape.authorization(receiver))) {
                browser.chartTitles("db-bridge dashboard", 5);
                String delivered = firstInInbox(receiver);
                Custody found = browser.ask(delivered);
                assertThat(found.position()).as(found.toString()).startsWith("delivered into b's inbox at ");
                assertThat(found.hops()).as(found.toString()).satisfiesExactly(
                        sent -> assertThat(sent).satisfiesExactly(at -> assertThat(at).matches(TIME),
                                where -> assertThat(where).isEqualTo("node a"),
                                action -> assertThat(action).isEqualTo("sent")),
                        arrived -> assertThat(arrived).satisfiesExactly(at -> assertThat(at).matches(TIME),
                                where -> assertThat(where).isEqualTo("node b"),
                                action -> assertThat(action).isEqualTo("delivered")));
                assertThat(found.foreignElements()).isZero();
            }
        }
        finally {
            load.shutdownNow();
        }
    }

    /** A message id of the node's inbox, or null while it is empty. */
    private static String firstInInbox(EmbeddedNode node) throws SQLException {
        try (Connection c = node.database().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT message_id FROM inbox ORDER BY received_at LIMIT 1");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Writes a valid message into the node's outbox as an application would, with the message id given. */
    private static void insert(EmbeddedNode node, String messageId, OutboxMessage message) throws SQLException {
        try (Connection c = node.database().getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO outbox (message_id, kmtf_type, body) VALUES (?, ?, ?)")) {
            ps.setString(1, messageId);
            ps.setString(2, message.kmtfType());
            ps.setBytes(3, message.body());
            ps.executeUpdate();
        }
    }
}

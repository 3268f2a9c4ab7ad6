package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * The built-in dashboard page in a real browser ({@link DashboardBrowser}), against a running node under load: the
 * charts are drawn, their data is live (the publish rate's points change between two reads) and a screenshot is kept
 * in target/.
 */
class DashboardPageBrowserTest {

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

                browser.screenshot("dashboard-node-a.png");
            }
        }
        finally {
            load.shutdownNow();
        }
    }
}

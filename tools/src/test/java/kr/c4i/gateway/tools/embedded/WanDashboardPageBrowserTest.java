package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tools.embedded.DashboardBrowser.Custody;

/**
 * The WAN gateway's built-in dashboard page in a real browser ({@link DashboardBrowser}), against the gateway of site
 * s1 relaying to site s2: its charts are drawn, the relay rate by direction is live and changes between two reads, the
 * search box says where a relayed message is, and a screenshot is kept in target/.
 */
class WanDashboardPageBrowserTest {

    @TempDir
    Path work;

    @Test
    @Timeout(180)
    void theChartsShowTheGatewaysLiveFigures() throws Exception {
        DashboardBrowser.assertInstalled();
        ExecutorService load = Executors.newSingleThreadExecutor();
        try (WanSites sites = WanSites.start(work)) {
            // A few messages a second for as long as the page is read.
            Future<?> loading = load.submit(() -> {
                for (int batch = 1; !Thread.currentThread().isInterrupted(); batch++) {
                    sites.send("live-" + batch, 5, batch % 10 == 0 ? Precedence.FLASH : Precedence.ROUTINE);
                    TimeUnit.MILLISECONDS.sleep(500);
                }
                return null;
            });
            try (DashboardBrowser browser = DashboardBrowser.open(
                    WanSites.baseUrl(sites.gateway1) + "/actuator/dashboard", WanSites.authorization())) {
                List<String> titles = browser.chartTitles("wan-gateway dashboard", 10);
                assertThat(titles).contains("WAN link up per peer site", "Relayed by direction",
                        "Store depth per precedence", "Dropped by reason, refused by the store", "WAN bytes",
                        "FLASH delivery latency (origin to this site's nodes)", "JVM memory used");

                browser.awaitLive("Relayed by direction", "lan-in");
                assertThat(loading).as("the load still runs while the page is read").isNotDone();
                browser.assertUpdated();

                // Where is message X, at this gateway: the first one sent, stored for s2 and s3; s2 took custody and
                // delivered it onto its LAN, which s2's gateway forwarded here, the origin's site.
                Custody relayed = await().atMost(Duration.ofSeconds(30)).until(() -> browser.ask("live-1-1"),
                        answer -> answer.position() != null && answer.position().startsWith("delivered onto"));
                assertThat(relayed.position()).startsWith("delivered onto site s2's LAN at ")
                        .endsWith("; still stored at gateway s1 for s3");
                assertThat(relayed.rows()).extracting(row -> String.join(" ", row.subList(1, 4))).containsOnly(
                        "site s1 stored s2", "site s1 stored s3", "site s1 acknowledged s2", "site s2 delivered @lan");
                assertThat(relayed.rows().getFirst().get(2)).isEqualTo("stored");
                assertThat(browser.ask("no-such-message").position()).isEqualTo("not seen here (asked site s1)");

                browser.ask("live-1-1");
                browser.screenshot("dashboard-wan-gateway-s1.png");
            }
            finally {
                // After the browser quits, before the sites close: no send to a closed node.
                load.shutdownNow();
                load.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        finally {
            load.shutdownNow();
        }
    }
}

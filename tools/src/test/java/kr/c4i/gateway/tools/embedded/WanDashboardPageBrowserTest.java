package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The WAN gateway's built-in dashboard page in a real browser (as DashboardPageBrowserTest for a node), against the
 * gateway of site s1 relaying to site s2: its charts are drawn, the relay rate by direction is live and changes
 * between two reads, and a screenshot is kept in target/.
 */
class WanDashboardPageBrowserTest {

    /** The "Relayed by direction" chart's lan-in line, as the page's script keeps it. */
    private static final String LAN_IN = """
            const chart = Chart.getChart(document.querySelector('canvas[data-title="Relayed by direction"]'));
            if (!chart) { return null; }
            const line = chart.data.datasets.find(d => d.label === 'lan-in');
            return line ? line.data.map(v => v === null ? -1 : v) : null;
            """;

    @TempDir
    Path work;

    @Test
    @Timeout(180)
    void theChartsShowTheGatewaysLiveFigures() throws Exception {
        assertThat(DashboardPageBrowserTest.CHROMIUM).as("Debian's chromium is needed for this test").isExecutable();
        assertThat(DashboardPageBrowserTest.CHROMEDRIVER).as("Debian's chromedriver is needed for this test")
                .isExecutable();
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
            ChromeDriver browser = DashboardPageBrowserTest.browser();
            try {
                browser.executeCdpCommand("Network.enable", Map.of());
                browser.executeCdpCommand("Network.setExtraHTTPHeaders",
                        Map.of("headers", Map.of("Authorization", WanSites.authorization())));
                browser.get(WanSites.baseUrl(sites.gateway1) + "/actuator/dashboard");

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        browser.findElements(By.cssSelector("canvas[data-title]"))).hasSizeGreaterThanOrEqualTo(10));
                assertThat(browser.findElement(By.id("title")).getText()).isEqualTo("wan-gateway dashboard");
                List<String> titles = browser.findElements(By.cssSelector("canvas[data-title]")).stream()
                        .map(canvas -> canvas.getDomAttribute("data-title")).toList();
                assertThat(titles).contains("WAN link up per peer site", "Relayed by direction",
                        "Store depth per precedence", "Dropped by reason, refused by the store", "WAN bytes",
                        "FLASH delivery latency (origin to this site's nodes)", "JVM memory used");

                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(points(browser))
                        .anySatisfy(rate -> assertThat(rate).isPositive()));
                List<Double> first = points(browser);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(points(browser))
                        .hasSizeGreaterThan(first.size()).isNotEqualTo(first));
                assertThat(loading).as("the load still runs while the page is read").isNotDone();
                assertThat(browser.findElement(By.id("status")).getText()).startsWith("updated");

                Path screenshot = Path.of("target", "dashboard-wan-gateway-s1.png");
                Files.createDirectories(screenshot.getParent());
                Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot,
                        StandardCopyOption.REPLACE_EXISTING);
                assertThat(Files.size(screenshot)).isPositive();
            }
            finally {
                browser.quit();
                // Before the sites close: no send to a closed node.
                load.shutdownNow();
                load.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        finally {
            load.shutdownNow();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Double> points(ChromeDriver browser) {
        List<Number> points = (List<Number>) browser.executeScript(LAN_IN);
        return points == null ? List.of() : points.stream().map(Number::doubleValue).toList();
    }
}

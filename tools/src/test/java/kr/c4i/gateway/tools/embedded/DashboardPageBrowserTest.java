package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * The built-in dashboard page in a real browser (Debian's chromium, headless, driven by its chromedriver over
 * Selenium, no Selenium Manager), against a running node under load: the charts are drawn, their data is live
 * (the publish rate's points change between two reads) and a screenshot is kept in target/. Where this test runs
 * (here and CI, whose .ci/run installs chromium and chromium-driver) a missing browser is a failure, not a skip.
 */
class DashboardPageBrowserTest {

    static final Path CHROMIUM = Path.of(System.getProperty("gateway.test.chromium", "/usr/bin/chromium"));

    static final Path CHROMEDRIVER = Path.of(System.getProperty("gateway.test.chromedriver",
            "/usr/bin/chromedriver"));

    /** The publish chart's "published" line, as the page's script keeps it. */
    private static final String PUBLISHED = """
            const chart = Chart.getChart(document.querySelector('canvas[data-title="Publish and delivery rates"]'));
            if (!chart) { return null; }
            const published = chart.data.datasets.find(d => d.label === 'published');
            return published ? published.data.map(v => v === null ? -1 : v) : null;
            """;

    @TempDir
    Path work;

    @Test
    void theChartsShowTheNodesLiveFigures() throws Exception {
        assertThat(CHROMIUM).as("Debian's chromium is needed for this test: apt-get install -y chromium "
                + "(or -Dgateway.test.chromium=/path/to/chromium)").isExecutable();
        assertThat(CHROMEDRIVER).as("Debian's chromedriver is needed for this test: apt-get install -y chromium-driver "
                + "(or -Dgateway.test.chromedriver=/path/to/chromedriver)").isExecutable();

        ExecutorService load = Executors.newSingleThreadExecutor();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(TransportKind.JMS, 2, work, work.resolve("gateway.log"))) {
            EmbeddedNode publisher = cluster.publisher();
            LoadDriver driver = new LoadDriver(new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", 0, false, 11),
                    publisher.database());
            // Long enough to outlast the test at a rate the two cores keep up with; bad rows fill the quarantine chart.
            Future<?> loading = load.submit(() -> {
                driver.drive(200_000, 150, 50);
                return null;
            });
            ChromeDriver browser = browser();
            try {
                // The page asks for the credential like every endpoint; the browser sends it with every request.
                browser.executeCdpCommand("Network.enable", Map.of());
                browser.executeCdpCommand("Network.setExtraHTTPHeaders",
                        Map.of("headers", Map.of("Authorization", Scrape.authorization(publisher))));
                browser.get(DemoCommand.dashboardUrl(publisher));

                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                        browser.findElements(By.cssSelector("canvas[data-title]"))).hasSizeGreaterThanOrEqualTo(5));
                assertThat(browser.findElement(By.id("title")).getText()).isEqualTo("db-bridge dashboard");
                List<String> titles = browser.findElements(By.cssSelector("canvas[data-title]")).stream()
                        .map(canvas -> canvas.getDomAttribute("data-title")).toList();
                assertThat(titles).contains("Outbox backlog", "Publish and delivery rates",
                        "End-to-end latency (origin outbox to inbox here)", "Quarantined outbox rows by reason",
                        "JVM memory used");

                // Live: messages are being published, and the line moves on between two reads.
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(points(browser))
                        .anySatisfy(rate -> assertThat(rate).isPositive()));
                List<Double> first = points(browser);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(points(browser))
                        .hasSizeGreaterThan(first.size()).isNotEqualTo(first));
                assertThat(loading).as("the load still runs while the page is read").isNotDone();
                // The bad rows' quarantine reasons appear as lines of their own.
                await().atMost(Duration.ofSeconds(30)).until(() -> (Long) browser.executeScript("""
                        const chart = Chart.getChart(document.querySelector(
                            'canvas[data-title="Quarantined outbox rows by reason"]'));
                        return chart.data.datasets.length;""") > 0);
                assertThat(browser.findElement(By.id("status")).getText()).startsWith("updated");

                Path screenshot = Path.of("target", "dashboard-node-a.png");
                Files.createDirectories(screenshot.getParent());
                Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), screenshot,
                        StandardCopyOption.REPLACE_EXISTING);
                assertThat(Files.size(screenshot)).isPositive();
            }
            finally {
                browser.quit();
            }
        }
        finally {
            load.shutdownNow();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Double> points(ChromeDriver browser) {
        List<Number> points = (List<Number>) browser.executeScript(PUBLISHED);
        return points == null ? List.of() : points.stream().map(Number::doubleValue).toList();
    }

    static ChromeDriver browser() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=1400,1300");
        // The driver named, so Selenium Manager (which would download one) never runs.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}

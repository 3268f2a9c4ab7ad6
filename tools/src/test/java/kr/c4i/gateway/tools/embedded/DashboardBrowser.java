package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A built-in dashboard page in a real browser (Debian's chromium, headless, driven by its chromedriver over Selenium,
 * no Selenium Manager), for the browser tests of the node's and the WAN gateway's pages. Where these tests run (here
 * and CI, whose .ci/run installs chromium and chromium-driver) a missing browser is a failure, not a skip.
 */
final class DashboardBrowser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of(System.getProperty("gateway.test.chromium", "/usr/bin/chromium"));

    private static final Path CHROMEDRIVER = Path.of(System.getProperty("gateway.test.chromedriver",
            "/usr/bin/chromedriver"));

    /** One line of one chart, as the page's script keeps it: arguments[0] the chart's title, [1] the line's label. */
    private static final String LINE = """
            const canvas = [...document.querySelectorAll('canvas[data-title]')]
                .find(c => c.dataset.title === arguments[0]);
            const chart = canvas ? Chart.getChart(canvas) : null;
            if (!chart) { return null; }
            const line = chart.data.datasets.find(d => d.label === arguments[1]);
            return line ? line.data.map(v => v === null ? -1 : v) : null;
            """;

    /**
     * What the search box shows once answered (null while it asks): the message id, the position line or the error
     * line, the steps' cells, and how many elements in it are none of those the page makes (markup from the data).
     */
    private static final String CUSTODY = """
            const box = document.getElementById('custody');
            if (box.hidden || document.getElementById('custody-pending')) { return null; }
            const text = (id) => { const e = document.getElementById(id); return e ? e.textContent : null; };
            const made = new Set(['H2', 'CODE', 'P', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD']);
            return {
                id: text('custody-id'), position: text('custody-position'), error: text('custody-error'),
                rows: [...document.querySelectorAll('#custody-steps tbody tr')]
                    .map(r => [...r.cells].map(c => c.textContent)),
                hops: [...document.querySelectorAll('#custody-hops tbody tr')]
                    .map(r => [...r.cells].map(c => c.textContent)),
                foreign: [...box.querySelectorAll('*')].filter(e => !made.has(e.tagName)).length
            };
            """;

    /**
     * The search box's answer.
     *
     * @param messageId the message id it names, as shown
     * @param position the last known position line, or null after an error
     * @param error the error line, or null
     * @param rows the steps' cells: time, where, step, peer, link, precedence, detail
     * @param hops the cells of the hops the message carried into this node's inbox: time, where, action
     * @param foreignElements elements in the answer the page does not make itself: markup that came with the data
     */
    record Custody(String messageId, @Nullable String position, @Nullable String error, List<List<String>> rows,
            List<List<String>> hops, long foreignElements) {
    }

    private final ChromeDriver driver;

    private DashboardBrowser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Fails the test, saying how to install them, where chromium or its chromedriver is missing. */
    static void assertInstalled() {
        assertThat(CHROMIUM).as("Debian's chromium is needed for this test: apt-get install -y chromium "
                + "(or -Dgateway.test.chromium=/path/to/chromium)").isExecutable();
        assertThat(CHROMEDRIVER).as("Debian's chromedriver is needed for this test: apt-get install -y chromium-driver "
                + "(or -Dgateway.test.chromedriver=/path/to/chromedriver)").isExecutable();
    }

    /** Opens the page; it asks for the credential like every endpoint, so the browser sends it with every request. */
    static DashboardBrowser open(String url, String authorization) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--window-size=1400,1300");
        // The driver named, so Selenium Manager (which would download one) never runs.
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString())).usingAnyFreePort().build();
        DashboardBrowser browser = new DashboardBrowser(new ChromeDriver(service, options));
        try {
            browser.driver.executeCdpCommand("Network.enable", Map.of());
            browser.driver.executeCdpCommand("Network.setExtraHTTPHeaders",
                    Map.of("headers", Map.of("Authorization", authorization)));
            browser.driver.get(url);
        }
        catch (RuntimeException ex) {
            browser.close();
            throw ex;
        }
        return browser;
    }

    /** Waits until at least {@code atLeast} charts are drawn, checks the page's title, and gives the charts' titles. */
    List<String> chartTitles(String pageTitle, int atLeast) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                driver.findElements(By.cssSelector("canvas[data-title]"))).hasSizeGreaterThanOrEqualTo(atLeast));
        assertThat(driver.findElement(By.id("title")).getText()).isEqualTo(pageTitle);
        return driver.findElements(By.cssSelector("canvas[data-title]")).stream()
                .map(canvas -> canvas.getDomAttribute("data-title")).toList();
    }

    /** Waits until the line shows a positive point, then until it moves on between two reads: its data is live. */
    void awaitLive(String chartTitle, String lineLabel) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(points(chartTitle, lineLabel))
                .anySatisfy(rate -> assertThat(rate).isPositive()));
        List<Double> first = points(chartTitle, lineLabel);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(points(chartTitle, lineLabel))
                .hasSizeGreaterThan(first.size()).isNotEqualTo(first));
    }

    /** Runs a script in the page and gives what it returns. */
    Object script(String script) {
        return driver.executeScript(script);
    }

    /** Checks the page says it has updated its figures. */
    void assertUpdated() {
        assertThat(driver.findElement(By.id("status")).getText()).startsWith("updated");
    }

    /** Types the message id into the page's search box, submits it and waits for the answer below the header. */
    @SuppressWarnings("unchecked")
    Custody ask(String messageId) {
        WebElement box = driver.findElement(By.id("message-id"));
        box.clear();
        box.sendKeys(messageId);
        driver.findElement(By.cssSelector("#search button[type=submit]")).click();
        Map<String, Object> shown = await().atMost(Duration.ofSeconds(20)).until(
                () -> (Map<String, Object>) driver.executeScript(CUSTODY), answer -> answer != null);
        return new Custody((String) shown.get("id"), (String) shown.get("position"), (String) shown.get("error"),
                (List<List<String>>) shown.get("rows"), (List<List<String>>) shown.get("hops"),
                ((Number) shown.get("foreign")).longValue());
    }

    /** Keeps a screenshot of the page as target/{@code fileName}. */
    void screenshot(String fileName) throws IOException {
        Path screenshot = Path.of("target", fileName);
        Files.createDirectories(screenshot.getParent());
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), screenshot, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(screenshot)).isPositive();
    }

    @Override
    public void close() {
        driver.quit();
    }

    @SuppressWarnings("unchecked")
    private List<Double> points(String chartTitle, String lineLabel) {
        List<Number> points = (List<Number>) driver.executeScript(LINE, chartTitle, lineLabel);
        return points == null ? List.of() : points.stream().map(Number::doubleValue).toList();
    }
}

package kr.c4i.gateway.bridge.report;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.retry.Pause;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The one thread that asks this site's WAN gateway for the fates of this node's messages
 * ({@code GET <gateway>/actuator/reports/<node>?after=<cursor>}) and writes the reports wanted into
 * {@code delivery_report}: every {@code gateway.reports.interval}, at once again while the gateway has more, after a
 * pause that grows up to ten intervals while it cannot be asked. The cursor is in the interface database, written with
 * the reports, so a restart or a failure between the answer and the write asks again and writes each report once.
 */
final class DeliveryReportPuller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeliveryReportPuller.class);

    /** The most reports asked for at once. */
    static final int LIMIT = 500;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ReportProperties properties;
    /** Where the cursor is kept: one for the site's gateway, whichever of its pair answers. */
    static final String SOURCE = "site-gateway";

    private final List<URI> gateways;
    private final NodeId node;
    private final DeliveryReportStore store;
    private final HttpClient client;
    private final String authorization;
    private final Backoff backoff;
    private final Counter delivered;
    private final Counter notDelivered;
    private final Counter failures;
    private final AtomicLong failed = new AtomicLong();
    private final Pause pause = new Pause();
    private volatile boolean running;
    private @Nullable Thread thread;

    DeliveryReportPuller(ReportProperties properties, NodeId node, DeliveryReportStore store, HttpClient client,
            MeterRegistry registry) {
        this.properties = properties;
        this.gateways = properties.gateway().stream().map(DeliveryReportPuller::withoutTrailingSlash).toList();
        if (gateways.isEmpty()) {
            throw new IllegalArgumentException("gateway.reports.gateway names no gateway");
        }
        this.node = node;
        this.store = store;
        this.client = client;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((properties.user() + ":"
                + properties.password()).getBytes(StandardCharsets.UTF_8));
        this.backoff = new Backoff(properties.interval(), properties.interval().multipliedBy(10));
        this.delivered = written(registry, "true");
        this.notDelivered = written(registry, "false");
        this.failures = Counter.builder(MetricNames.REPORTS_FAILURES)
                .description("Rounds that could not ask the site's gateway for delivery reports or write them")
                .register(registry);
    }

    private static Counter written(MeterRegistry registry, String delivered) {
        return Counter.builder(MetricNames.REPORTS_WRITTEN)
                .description("Delivery (delivered=true) and non-delivery reports written into delivery_report")
                .tag("delivered", delivered).register(registry);
    }

    synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().name("delivery-reports").daemon().start(this::run);
        log.info("Asking {} for the delivery reports of node {}'s {} messages{}", gateways, node,
                properties.precedences(), properties.types().isEmpty() ? "" : " and of types " + properties.types());
    }

    private void run() {
        while (running) {
            Duration wait = properties.interval();
            try {
                if (round() == LIMIT) {
                    wait = Duration.ZERO;
                }
                backoff.reset();
            }
            catch (SQLException | ReportsUnreadableException ex) {
                failures.increment();
                wait = backoff.next();
                if (Long.bitCount(failed.incrementAndGet()) == 1) {
                    log.warn("Unable to read the delivery reports of node {}: {}; trying again in {} ms "
                            + "(failure #{})", node, ex.getMessage(), wait.toMillis(), failed.get());
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            if (running && !pause.await(wait)) {
                return;
            }
        }
    }

    /**
     * Asks once and writes what the answer holds.
     *
     * @return how many reports (steps, each naming messages) the gateway answered with
     */
    int round() throws InterruptedException, SQLException {
        long after = store.cursor(SOURCE);
        Answer answer = ask(after);
        if (answer.reports().isEmpty() && answer.next() == after) {
            return 0;
        }
        DeliveryReportStore.Written written = store.write(SOURCE, answer.next(), answer.reports(), properties);
        delivered.increment(written.delivered());
        notDelivered.increment(written.notDelivered());
        return answer.reports().size();
    }

    /** Asks the gateways in turn until one answers with reports; the last one's failure if none does. */
    private Answer ask(long after) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        for (URI gateway : gateways) {
            URI uri = URI.create(gateway + "/actuator/reports/" + node.value() + "?after=" + after + "&limit="
                    + LIMIT);
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                    .header("Authorization", authorization).header("Accept", "application/json").GET().build();
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new ReportsUnreadableException(gateway + " answered " + response.statusCode()
                            + (response.statusCode() == 401 ? " (check gateway.reports.user and password)"
                                    : ": " + abbreviate(response.body())));
                }
                return Answer.parse(gateway, response.body());
            }
            catch (IOException | ReportsUnreadableException ex) {
                failures.add(ex instanceof IOException ? gateway + ": " + ex : ex.getMessage());
            }
        }
        throw new ReportsUnreadableException(String.join("; ", failures));
    }

    /** A gateway's answer: the reports and the cursor to ask after next. */
    record Answer(long next, List<DeliveryReport> reports) {

        static Answer parse(URI gateway, String body) {
            try {
                JsonNode root = JSON.readTree(body);
                List<DeliveryReport> reports = new ArrayList<>();
                for (JsonNode report : root.required("reports")) {
                    List<String> ids = new ArrayList<>();
                    report.required("messageIds").forEach(id -> ids.add(id.asString()));
                    JsonNode precedence = report.get("precedence");
                    JsonNode detail = report.get("detail");
                    reports.add(new DeliveryReport(report.required("site").asString(),
                            report.required("event").asString(), Instant.parse(report.required("at").asString()),
                            precedence == null || precedence.isNull() ? null : Precedence.parse(precedence.asString()),
                            detail == null || detail.isNull() ? null : detail.asString(), ids));
                }
                return new Answer(root.required("next").asLong(), reports);
            }
            catch (JacksonException | DateTimeParseException | IllegalArgumentException ex) {
                String why = ex instanceof JacksonException json ? json.getOriginalMessage() : ex.getMessage();
                throw new ReportsUnreadableException(gateway + " answered no list of reports (" + abbreviate(why)
                        + "): " + abbreviate(body));
            }
        }
    }

    /** The gateway answered, but not with reports. */
    static final class ReportsUnreadableException extends RuntimeException {

        ReportsUnreadableException(String message) {
            super(message);
        }
    }


    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            this.running = false;
            running = thread;
        }
        pause.wake();
        if (running != null) {
            running.interrupt();
            try {
                running.join(Duration.ofSeconds(5));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static URI withoutTrailingSlash(URI uri) {
        String text = uri.toString();
        return text.endsWith("/") ? URI.create(text.substring(0, text.length() - 1)) : uri;
    }

    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= 200 ? line : line.substring(0, 199) + "…";
    }
}

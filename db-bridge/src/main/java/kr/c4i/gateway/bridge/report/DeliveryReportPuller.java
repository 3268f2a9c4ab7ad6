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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * The threads that ask for the fates of this node's messages
 * ({@code GET <source>/actuator/reports/<node>?after=<cursor>}) and write the reports wanted into
 * {@code delivery_report}: one per source, this site's WAN gateway and each node of the site this node sends to (a
 * pair's two addresses asked in turn), so that a source that cannot be reached never holds up another. Each asks every
 * {@code gateway.reports.interval}, at once again while its source has more, after a pause that grows up to ten
 * intervals while it cannot be asked. Each source's cursor is in the interface database, written with its reports,
 * so a restart or a failure between the answer and the write asks again and writes each report once.
 */
final class DeliveryReportPuller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeliveryReportPuller.class);

    /** The most reports asked for at once. */
    static final int LIMIT = 500;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Where the site's gateway's cursor is kept: one, whichever of its pair answers. A node's is its address. */
    static final String GATEWAY_SOURCE = "site-gateway";

    private final ReportProperties properties;
    private final Map<String, Source> sources = new LinkedHashMap<>();
    private final NodeId node;
    private final DeliveryReportStore store;
    private final HttpClient client;
    private final String authorization;
    private final Counter delivered;
    private final Counter notDelivered;
    private final Counter failures;
    private volatile boolean running;

    DeliveryReportPuller(ReportProperties properties, NodeId node, DeliveryReportStore store, HttpClient client,
            MeterRegistry registry) {
        this.properties = properties;
        if (!properties.gateway().isEmpty()) {
            sources.put(GATEWAY_SOURCE, new Source(GATEWAY_SOURCE, properties.gateway()));
        }
        // A node's cursor is named by its (first) address: a standby added later keeps it.
        for (List<URI> addresses : properties.nodeAddresses()) {
            String name = withoutTrailingSlash(addresses.getFirst()).toString();
            sources.putIfAbsent(name, new Source(name, addresses));
        }
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("gateway.reports names neither a gateway nor nodes");
        }
        this.node = node;
        this.store = store;
        this.client = client;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((properties.user() + ":"
                + properties.password()).getBytes(StandardCharsets.UTF_8));
        this.delivered = written(registry, "true");
        this.notDelivered = written(registry, "false");
        this.failures = Counter.builder(MetricNames.REPORTS_FAILURES)
                .description("Rounds that could not ask a source (the site's gateway, a node) for delivery reports "
                        + "or write them")
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
        sources.values().forEach(Source::start);
        log.info("Asking {} for the delivery reports of node {}'s {} messages{}", sources.values().stream()
                .map(source -> source.addresses).toList(), node, properties.precedences(),
                properties.types().isEmpty() ? "" : " and of types " + properties.types());
    }

    /**
     * Asks {@code source} once and writes what the answer holds.
     *
     * @param source {@link #GATEWAY_SOURCE} or a node's (first) address as {@code gateway.reports.nodes} gives it
     * @return how many reports (steps, each naming messages) the source answered with
     */
    int round(String source) throws InterruptedException, SQLException {
        Source asked = sources.get(source);
        if (asked == null) {
            throw new IllegalArgumentException("No source of delivery reports is " + source + ": " + sources.keySet());
        }
        return asked.round();
    }

    /** One source of reports: its cursor, its addresses asked in turn, and the thread that asks them. */
    private final class Source {

        private final String name;
        private final List<URI> addresses;
        private final Backoff backoff = new Backoff(properties.interval(), properties.interval().multipliedBy(10));
        private final AtomicLong failed = new AtomicLong();
        private final Pause pause = new Pause();
        private @Nullable Thread thread;

        Source(String name, List<URI> addresses) {
            this.name = name;
            this.addresses = addresses.stream().map(DeliveryReportPuller::withoutTrailingSlash).toList();
        }

        void start() {
            thread = Thread.ofPlatform().name("delivery-reports-" + name).daemon().start(this::run);
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
                        log.warn("Unable to read the delivery reports of node {} from {}: {}; trying again in {} ms "
                                + "(failure #{})", node, name, ex.getMessage(), wait.toMillis(), failed.get());
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

        int round() throws InterruptedException, SQLException {
            long after = store.cursor(name);
            Answer answer = ask(addresses, after);
            if (answer.reports().isEmpty() && answer.next() == after) {
                return 0;
            }
            DeliveryReportStore.Written written = store.write(name, answer.next(), answer.reports(), properties);
            delivered.increment(written.delivered());
            notDelivered.increment(written.notDelivered());
            return answer.reports().size();
        }

        void stop() {
            pause.wake();
            Thread asking = thread;
            if (asking != null) {
                asking.interrupt();
                try {
                    asking.join(Duration.ofSeconds(5));
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Asks the addresses in turn until one answers with reports; their failures if none does. */
    private Answer ask(List<URI> addresses, long after) throws InterruptedException {
        List<String> failures = new ArrayList<>();
        for (URI address : addresses) {
            URI uri = URI.create(address + "/actuator/reports/" + node.value() + "?after=" + after + "&limit="
                    + LIMIT);
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                    .header("Authorization", authorization).header("Accept", "application/json").GET().build();
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new ReportsUnreadableException(address + " answered " + response.statusCode()
                            + (response.statusCode() == 401 ? " (check gateway.reports.user and password)"
                                    : ": " + abbreviate(response.body())));
                }
                return Answer.parse(address, response.body());
            }
            catch (IOException | ReportsUnreadableException ex) {
                failures.add(ex instanceof IOException ? address + ": " + ex : ex.getMessage());
            }
        }
        throw new ReportsUnreadableException(String.join("; ", failures));
    }

    /** A source's answer: the reports and the cursor to ask after next. */
    record Answer(long next, List<DeliveryReport> reports) {

        static Answer parse(URI address, String body) {
            try {
                JsonNode root = JSON.readTree(body);
                List<DeliveryReport> reports = new ArrayList<>();
                for (JsonNode report : root.required("reports")) {
                    List<String> ids = new ArrayList<>();
                    report.required("messageIds").forEach(id -> ids.add(id.asString()));
                    JsonNode precedence = report.get("precedence");
                    JsonNode detail = report.get("detail");
                    reports.add(new DeliveryReport(report.required("reporter").asString(),
                            report.required("event").asString(), Instant.parse(report.required("at").asString()),
                            precedence == null || precedence.isNull() ? null : Precedence.parse(precedence.asString()),
                            detail == null || detail.isNull() ? null : detail.asString(), ids));
                }
                return new Answer(root.required("next").asLong(), reports);
            }
            catch (JacksonException | DateTimeParseException | IllegalArgumentException ex) {
                String why = ex instanceof JacksonException json ? json.getOriginalMessage() : ex.getMessage();
                throw new ReportsUnreadableException(address + " answered no list of reports (" + abbreviate(why)
                        + "): " + abbreviate(body));
            }
        }
    }

    /** A source answered, but not with reports. */
    static final class ReportsUnreadableException extends RuntimeException {

        ReportsUnreadableException(String message) {
            super(message);
        }
    }


    @Override
    public void close() {
        synchronized (this) {
            running = false;
        }
        sources.values().forEach(Source::stop);
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

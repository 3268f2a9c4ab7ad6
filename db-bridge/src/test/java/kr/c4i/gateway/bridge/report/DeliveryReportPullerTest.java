package kr.c4i.gateway.bridge.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * The bridge's side of delivery reports, on a real interface database: it asks a gateway and nodes of its site that
 * answer as {@code /actuator/reports/<node>} does (HTTP servers of the test's, serving reports after the cursor
 * asked), writes the wanted ones once, and keeps a cursor per source with them. The real endpoint is in the WAN
 * end-to-end test and, at a node, in ManagementSecurityTest.
 */
class DeliveryReportPullerTest {

    private static final String PASSWORD = "s3cret";
    private static final Pattern AFTER = Pattern.compile("after=(\\d+)");
    private static final String GATEWAY = DeliveryReportPuller.GATEWAY_SOURCE;

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private HttpServer gateway;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<String> reports = new CopyOnWriteArrayList<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String garbage;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        gateway = serve(reports, asked);
    }

    @AfterEach
    void stop() throws IOException {
        gateway.stop(0);
        db.close();
    }

    /** A source answering as the endpoint does, from its log's {@code served} reports, noting what it was asked. */
    private HttpServer serve(List<String> served, List<String> askedOf) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/actuator/reports/", exchange -> {
            askedOf.add(exchange.getRequestURI() + " " + exchange.getRequestHeaders().getFirst("Authorization"));
            Matcher after = AFTER.matcher(exchange.getRequestURI().getQuery());
            long from = after.find() ? Long.parseLong(after.group(1)) : 0;
            String body = garbage != null ? garbage : answer(served, from);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** The reports after {@code from}, as a source pages them: ids are their place in its log. */
    private static String answer(List<String> served, long from) {
        List<String> after = served.stream().filter(r -> id(r) > from).toList();
        long next = after.isEmpty() ? from : id(after.getLast());
        return "{\"node\":\"a\",\"after\":" + from + ",\"next\":" + next + ",\"reports\":[" + String.join(",", after)
                + "]}";
    }

    private static long id(String report) {
        Matcher m = Pattern.compile("\"id\":(\\d+)").matcher(report);
        m.find();
        return Long.parseLong(m.group(1));
    }

    private static String report(long id, String reporter, String event, String precedence, String detail,
            String... ids) {
        return "{\"id\":" + id + ",\"at\":\"2026-11-26T12:00:" + "%02d".formatted(id) + ".123456Z\",\"event\":\""
                + event
                + "\",\"reporter\":\"" + reporter + "\",\"peers\":[\"@lan\"],\"precedence\":"
                + (precedence == null ? "null" : "\"" + precedence + "\"") + ",\"detail\":"
                + (detail == null ? "null" : "\"" + detail + "\"") + ",\"messageIds\":[\""
                + String.join("\",\"", ids) + "\"]}";
    }

    private DeliveryReportPuller puller(Set<Precedence> precedences, Set<String> types) {
        return puller(precedences, types, List.of(), Duration.ofSeconds(5));
    }

    /** FLASH reports from the gateway and these nodes, each asked every 100 ms once started. */
    private DeliveryReportPuller puller(List<String> nodes) {
        return puller(Set.of(Precedence.FLASH), Set.of(), nodes, Duration.ofMillis(100));
    }

    private DeliveryReportPuller puller(Set<Precedence> precedences, Set<String> types, List<String> nodes,
            Duration interval) {
        // The first of the pair is down: the second answers.
        URI down = URI.create("http://127.0.0.1:" + LoopbackPorts.freeTcp());
        URI uri = URI.create("http://127.0.0.1:" + gateway.getAddress().getPort() + "/");
        ReportProperties properties = new ReportProperties(List.of(down, uri), nodes, "user", PASSWORD,
                precedences, types, interval);
        return new DeliveryReportPuller(properties, NodeId.of("a"), new DeliveryReportStore(db.dataSource()),
                HttpClient.newHttpClient(), registry);
    }

    private List<String> written() throws Exception {
        return db.strings("SELECT message_id || ' ' || reported_by || ' ' || event || ' ' || delivered || ' ' "
                + "|| coalesce(detail, '-') || ' ' || to_char(at AT TIME ZONE 'UTC', 'SS.US') FROM delivery_report "
                + "ORDER BY message_id, event");
    }

    @Test
    void theWantedReportsAreWrittenOnceAndTheCursorMovesWithThem() throws Exception {
        db.insertOutbox("CALLFIREACK", "MSGID/CALLFIREACK/a//");
        db.execute("INSERT INTO outbox (message_id, kmtf_type, precedence, body) VALUES ('r-1', 'SITREP', "
                + "'ROUTINE', '\\x00'::bytea), ('r-2', 'GENADMIN', 'ROUTINE', '\\x00'::bytea)");
        reports.add(report(3, "site s2", "delivered", "FLASH", null, "f-1", "f-2"));
        reports.add(report(5, "site s2", "delivered", "ROUTINE", null, "r-1", "r-2"));
        reports.add(report(8, "site s1", "expired", "FLASH", null, "f-3"));
        reports.add(report(9, "site s3", "dropped", "FLASH", "oversize", "f-4"));
        DeliveryReportPuller puller = puller(Set.of(Precedence.FLASH), Set.of("SITREP"));

        assertThat(puller.round(GATEWAY)).isEqualTo(4);

        assertThat(written()).containsExactly(
                "f-1 site s2 delivered true - 03.123456", "f-2 site s2 delivered true - 03.123456",
                "f-3 site s1 expired false - 08.123456", "f-4 site s3 dropped false oversize 09.123456",
                "r-1 site s2 delivered true - 05.123456");
        assertThat(db.strings("SELECT source || ' ' || after FROM delivery_report_cursor"))
                .containsExactly("site-gateway 9");
        assertThat(asked.getFirst()).startsWith("/actuator/reports/a?after=0&limit=500 Basic ");
        assertThat(registry.get(MetricNames.REPORTS_WRITTEN).tag("delivered", "true").counter().count()).isEqualTo(3);
        assertThat(registry.get(MetricNames.REPORTS_WRITTEN).tag("delivered", "false").counter().count())
                .isEqualTo(2);

        // Nothing new: the gateway is asked after the cursor and nothing is written twice.
        assertThat(puller.round(GATEWAY)).isZero();
        assertThat(asked.getLast()).startsWith("/actuator/reports/a?after=9&");
        reports.add(report(12, "site s2", "delivered", "FLASH", null, "f-3"));
        assertThat(puller.round(GATEWAY)).isEqualTo(1);
        assertThat(written()).contains("f-3 site s2 delivered true - 12.123456").hasSize(6);

        // Asked again from the start (a cursor lost), the reports written before are absorbed.
        db.execute("DELETE FROM delivery_report_cursor");
        puller.round(GATEWAY);
        assertThat(written()).hasSize(6);
    }

    @Test
    void aNodeOfTheSiteIsASourceOfItsOwnWithItsCursorAndItsReportsAreWrittenOnceAsItsOwn() throws Exception {
        List<String> ofB = new CopyOnWriteArrayList<>();
        List<String> askedB = new CopyOnWriteArrayList<>();
        HttpServer nodeB = serve(ofB, askedB);
        try {
            // Ids are each log's own: b's 3 is not the gateway's 3.
            reports.add(report(3, "site s2", "delivered", "FLASH", null, "f-1"));
            ofB.add(report(3, "node b", "delivered", "FLASH", null, "f-1", "f-2"));
            ofB.add(report(4, "node b", "quarantined", "FLASH", "unknown-type: no such type", "f-3"));
            String b = "http://127.0.0.1:" + nodeB.getAddress().getPort();
            DeliveryReportPuller puller = puller(List.of(b + "/"));

            assertThat(puller.round(GATEWAY)).isEqualTo(1);
            assertThat(puller.round(b)).isEqualTo(2);

            assertThat(written()).containsExactlyInAnyOrder("f-1 node b delivered true - 03.123456",
                    "f-1 site s2 delivered true - 03.123456", "f-2 node b delivered true - 03.123456",
                    "f-3 node b quarantined false unknown-type: no such type 04.123456");
            assertThat(db.strings("SELECT source || ' ' || after FROM delivery_report_cursor ORDER BY source"))
                    .containsExactly(b + " 4", "site-gateway 3");
            assertThat(askedB.getFirst()).startsWith("/actuator/reports/a?after=0&limit=500 Basic ");

            // Each asked after its own cursor; nothing written twice.
            assertThat(puller.round(b)).isZero();
            assertThat(askedB.getLast()).startsWith("/actuator/reports/a?after=4&");
            assertThat(puller.round(GATEWAY)).isZero();
            assertThat(asked.getLast()).startsWith("/actuator/reports/a?after=3&");
            assertThat(written()).hasSize(4);
        }
        finally {
            nodeB.stop(0);
        }
    }

    /** Node b's two bridges share its database, and so its log: one cursor, whichever of them answers. */
    @Test
    void aNodesPairIsAskedInTurnWithOneCursorNamedByItsFirstAddress() throws Exception {
        List<String> ofB = new CopyOnWriteArrayList<>();
        List<String> askedB2 = new CopyOnWriteArrayList<>();
        HttpServer nodeB2 = serve(ofB, askedB2);
        try {
            ofB.add(report(3, "node b", "delivered", "FLASH", null, "f-1"));
            String b = "http://127.0.0.1:" + LoopbackPorts.freeTcp();
            DeliveryReportPuller puller = puller(List.of(b + " | http://127.0.0.1:" + nodeB2.getAddress().getPort()));

            // node-b is down: node-b2 answers, under b's cursor.
            assertThat(puller.round(b)).isEqualTo(1);
            assertThat(written()).containsExactly("f-1 node b delivered true - 03.123456");
            assertThat(db.strings("SELECT source || ' ' || after FROM delivery_report_cursor WHERE source <> '"
                    + GATEWAY + "'")).containsExactly(b + " 3");

            ofB.add(report(4, "node b", "refused", "FLASH", "clearance", "f-2"));
            assertThat(puller.round(b)).isEqualTo(1);
            assertThat(askedB2.getLast()).startsWith("/actuator/reports/a?after=3&");
            assertThat(written()).hasSize(2);
        }
        finally {
            nodeB2.stop(0);
        }
    }

    @Test
    void aNodeThatDoesNotAnswerOrIsDownHoldsUpNeitherTheGatewayNorAnotherNode() throws Exception {
        // One node takes the connection and never answers (a request waits 10 s for it), another refuses it.
        CountDownLatch released = new CountDownLatch(1);
        HttpServer hung = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService handlers = Executors.newCachedThreadPool();
        hung.setExecutor(handlers);
        hung.createContext("/actuator/reports/", exchange -> {
            try {
                released.await();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        hung.start();
        List<String> ofB = new CopyOnWriteArrayList<>();
        HttpServer nodeB = serve(ofB, new CopyOnWriteArrayList<>());
        URI refused = URI.create("http://127.0.0.1:" + LoopbackPorts.freeTcp());
        reports.add(report(1, "site s2", "delivered", "FLASH", null, "f-1"));
        ofB.add(report(1, "node b", "delivered", "FLASH", null, "f-2"));
        try (DeliveryReportPuller puller = puller(List.of("http://127.0.0.1:" + hung.getAddress().getPort(),
                refused.toString(), "http://127.0.0.1:" + nodeB.getAddress().getPort()))) {
            puller.start();

            // Well inside the 10 s the hung node's request waits: no source waited for it.
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(written()).containsExactly(
                    "f-1 site s2 delivered true - 01.123456", "f-2 node b delivered true - 01.123456"));
            await().atMost(Duration.ofSeconds(5)).until(
                    () -> registry.get(MetricNames.REPORTS_FAILURES).counter().count() >= 1);
            assertThat(db.strings("SELECT source FROM delivery_report_cursor ORDER BY source")).containsExactly(
                    "http://127.0.0.1:" + nodeB.getAddress().getPort(), "site-gateway");
        }
        finally {
            released.countDown();
            hung.stop(0);
            handlers.shutdownNow();
            nodeB.stop(0);
        }
    }

    @Test
    void aGatewayThatRefusesTheCredentialOrAnswersNoReportsSaysSoInOneLineAndWritesNothing() throws Exception {
        reports.add(report(1, "site s2", "delivered", "FLASH", null, "f-1"));
        DeliveryReportPuller puller = puller(Set.of(Precedence.FLASH), Set.of());

        status = 401;
        assertThatThrownBy(() -> puller.round(GATEWAY)).hasMessageContaining(":" + gateway.getAddress().getPort()
                + " answered 401 (check gateway.reports.user and password)").message().contains("Connect");
        status = 200;
        garbage = "<html>not here</html>";
        assertThatThrownBy(() -> puller.round(GATEWAY)).hasMessageContaining("answered no list of reports")
                .hasMessageEndingWith("<html>not here</html>").message().doesNotContain("\n");
        garbage = "{\"next\":1,\"reports\":[{\"id\":1,\"at\":\"yesterday\",\"event\":\"delivered\",\"site\":\"s2\","
                + "\"messageIds\":[\"f-1\"]}]}";
        assertThatThrownBy(() -> puller.round(GATEWAY)).hasMessageContaining("answered no list of reports");
        assertThat(written()).isEmpty();
        assertThat(db.count("SELECT count(*) FROM delivery_report_cursor")).isZero();
    }

    @Test
    void aGatewayWithoutAPasswordOrAnAddressThatIsNoneIsRefusedNamingTheSetting() {
        List<URI> uri = List.of(URI.create("http://gw-s1:8091"));
        assertThatThrownBy(() -> new ReportProperties(uri, List.of(), "user", null, Set.of(Precedence.FLASH),
                Set.of(), Duration.ofSeconds(5))).hasMessageContaining("gateway.reports.password is required");
        assertThatThrownBy(() -> new ReportProperties(List.of(), List.of("http://node-b:8081"), "user", " ",
                Set.of(Precedence.FLASH),
                Set.of(), Duration.ofSeconds(5))).hasMessageContaining("gateway.reports.password is required");
        assertThatThrownBy(() -> new ReportProperties(List.of(URI.create("gw-s1:8091")), List.of(), "user", "x",
                Set.of(Precedence.FLASH), Set.of(), Duration.ofSeconds(5)))
                .hasMessageContaining("gateway.reports.gateway must be http:// or https:// addresses");
        assertThatThrownBy(() -> new ReportProperties(List.of(), List.of("node-b:8081"), "user", "x",
                Set.of(Precedence.FLASH), Set.of(), Duration.ofSeconds(5)))
                .hasMessageContaining("gateway.reports.nodes must be http:// or https:// addresses");
        assertThatThrownBy(() -> new ReportProperties(List.of(), List.of("http://node-b:8081|node-b2 8081"), "user",
                "x", Set.of(Precedence.FLASH), Set.of(), Duration.ofSeconds(5)))
                .hasMessage("gateway.reports.nodes must be http:// or https:// addresses with a host, a pair's two "
                        + "joined by '|', was 'http://node-b:8081|node-b2 8081'");
        assertThat(new ReportProperties(List.of(), List.of(), "user", null, Set.of(Precedence.FLASH), Set.of(),
                Duration.ofSeconds(5)).wanted(Precedence.FLASH, null)).isTrue();
    }
}

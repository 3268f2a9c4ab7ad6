package kr.c4i.gateway.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.deploy.DashboardQueries.Query;

/**
 * The monitoring files' expressions (DashboardQueries) evaluated by a running Prometheus that scrapes the services:
 * each must be valid, and each panel, variable and rule must find series, so no panel stays empty and no alert
 * stays quiet for want of a metric. Meant for after traffic and faults: some meters exist only from their first
 * event on (a quarantined row, a WAN drop, a frame resent or rejected).
 */
public final class PrometheusQueries {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private PrometheusQueries() {
    }

    /**
     * Every expression of the repository's dashboards and rules, evaluated now by the Prometheus at {@code prometheus}
     * (its base URI, e.g. {@code http://127.0.0.1:9090}).
     *
     * @return one line per failure (where the expression comes from, what failed, the expression); empty when all pass
     * @throws IOException when Prometheus does not answer as Prometheus
     */
    public static List<String> check(URI prometheus) throws IOException, InterruptedException {
        return check(prometheus, DashboardQueries.all());
    }

    /**
     * These expressions only. A stack runs one transport, so it has no series for the other's panels: e.g.
     * {@code DashboardQueries.all()} without those whose {@code expr()} reads {@code gateway_dds_} on JMS nodes, or
     * {@code artemis_} on DDS nodes.
     */
    public static List<String> check(URI prometheus, List<Query> queries) throws IOException, InterruptedException {
        List<String> failures = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
            for (Query query : queries) {
                JsonNode answer = answer(client, prometheus, query.expr());
                if (!answer.path("status").asString("").equals("success")) {
                    failures.add(query.where() + ": invalid (" + answer.path("errorType").asString("") + ": "
                            + answer.path("error").asString("") + "): " + oneLine(query.expr()));
                }
                else if (query.needsSeries() && series(answer.path("data")) == 0) {
                    failures.add(query.where() + ": no series: " + oneLine(query.expr()));
                }
            }
        }
        return failures;
    }

    /**
     * The series an instant query finds now, each as Prometheus gives it ({@code metric}, {@code value}).
     *
     * @throws IOException when Prometheus does not answer as Prometheus, or refuses the expression
     */
    public static List<JsonNode> series(URI prometheus, String expr) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()) {
            JsonNode answer = answer(client, prometheus, expr);
            if (!answer.path("status").asString("").equals("success")) {
                throw new IOException("Prometheus refused " + oneLine(expr) + ": " + answer.path("error").asString(""));
            }
            List<JsonNode> series = new ArrayList<>();
            answer.path("data").path("result").forEach(series::add);
            return series;
        }
    }

    /** Prometheus' answer to an instant query, POSTed as Grafana does: an expression can be longer than a URL. */
    private static JsonNode answer(HttpClient client, URI prometheus, String expr)
            throws IOException, InterruptedException {
        URI endpoint = URI.create(prometheus.toString().replaceAll("/+$", "") + "/api/v1/query");
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8)))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        try {
            return JSON.readTree(response.body());
        }
        catch (JacksonException ex) {
            throw new IOException(endpoint + " answered HTTP " + response.statusCode() + ", not Prometheus' JSON: "
                    + response.body().lines().findFirst().orElse(""), ex);
        }
    }

    /** A vector's or matrix's series; a scalar or string is one value. */
    private static int series(JsonNode data) {
        String type = data.path("resultType").asString("");
        return type.equals("vector") || type.equals("matrix") ? data.path("result").size() : 1;
    }

    private static String oneLine(String expr) {
        return expr.replaceAll("\\s+", " ");
    }
}

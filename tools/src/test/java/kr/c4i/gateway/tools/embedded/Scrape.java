package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;

/** A node's management endpoints, asked with its credential as Prometheus or an operator would. */
final class Scrape {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Scrape() {
    }

    static String authorization(EmbeddedNode node) throws IOException {
        String password = Files.readString(node.managementPasswordFile());
        return "Basic " + Base64.getEncoder()
                .encodeToString((node.managementUser() + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static HttpResponse<String> get(EmbeddedNode node, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path))
                .header("Authorization", authorization(node)).timeout(Duration.ofSeconds(10)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    static String prometheus(EmbeddedNode node) throws IOException, InterruptedException {
        HttpResponse<String> response = get(node, "/actuator/prometheus");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("node " + node.id() + ": /actuator/prometheus answered "
                    + response.statusCode());
        }
        return response.body();
    }

    /** The series names of a Prometheus text exposition (histogram buckets, sums and counts each by name). */
    static Set<String> names(String exposition) {
        Set<String> names = new TreeSet<>();
        exposition.lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0]).forEach(names::add);
        return names;
    }
}

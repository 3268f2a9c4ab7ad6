package kr.c4i.gateway.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * One bridge as a separate operating-system process, started from the executable jar users deploy,
 * so a test can kill it with SIGKILL (no shutdown hook, no flush) and start it again.
 */
final class NodeProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private final int httpPort;
    private final String authorization;
    private Process process;

    /** The launch's secrets go into the process's environment, not on a command line every local user can read. */
    NodeProcess(NodeLaunch launch, int httpPort, Path log) {
        this.name = launch.id();
        this.environment = launch.environment();
        this.httpPort = httpPort;
        this.log = log;
        authorization = "Basic " + Base64.getEncoder().encodeToString(
                ("user:" + launch.managementPassword()).getBytes(StandardCharsets.UTF_8));
        command = new ArrayList<>(List.of(System.getProperty("gateway.java", "java"), "-Xmx384m",
                "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-jar", bridgeJar().toString()));
        command.addAll(launch.arguments());
    }

    static Path bridgeJar() {
        Path jar = Path.of(System.getProperty("gateway.bridge.jar", "../db-bridge/target/db-bridge-exec.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Executable bridge jar not found at " + jar.toAbsolutePath()
                    + ": build it first with 'mvn -pl db-bridge -am package -DskipTests'");
        }
        return jar;
    }

    NodeProcess start() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        process = builder.start();
        return this;
    }

    /** Waits until the bridge reports UP on its health endpoint; fails at once if the process exits. */
    NodeProcess awaitUp(Duration timeout) {
        await().alias("node " + name + " UP (see " + log + ")").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class) // not listening yet
                .failFast(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("Node " + name + " exited with " + process.exitValue()
                                + "; see " + log);
                    }
                })
                .until(() -> {
                    HttpResponse<String> health = get("/actuator/health");
                    return health.statusCode() == 200 && health.body().contains("\"UP\"");
                });
        return this;
    }

    /** A management endpoint, asked with the node's credential. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .header("Authorization", authorization).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL: the process gets no chance to flush, acknowledge or say goodbye. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}

package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.util.function.Predicate;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.tools.node.GatewayLaunch;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * One bridge or WAN gateway as a separate operating-system process, started from the executable jar users deploy
 * (extracted, with an ahead-of-time cache: {@link NodeJar}), so a test can kill it with SIGKILL (no shutdown hook, no
 * flush) and start it again.
 */
final class NodeProcess implements AutoCloseable {

    // Lines of a process's log quoted when it exits early.
    private static final int LOG_TAIL = 40;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    /** The JVM and its options; the jar's part and the node's arguments follow at each start. */
    private final List<String> command;
    private final NodeJar jar;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final Path log;
    /** The process's working directory, where its JVM crash report and core dump land. */
    private final Path workDir;
    private final int httpPort;
    private final String authorization;
    private Process process;
    /** Whether this test ended the process, so an exit is not the process's own. */
    private boolean endedHere;
    /** The ahead-of-time cache this process writes as it exits, if it is its jar's training run. */
    private @Nullable Path training;

    /** The launch's secrets go into the process's environment, not on a command line every local user can read. */
    NodeProcess(NodeLaunch launch, int httpPort, Path log) {
        this("node " + launch.id(), bridgeJar(), launch.arguments(), launch.environment(),
                launch.managementPassword(), httpPort, log);
    }

    /** A site's WAN gateway from its executable jar, as {@link #NodeProcess(NodeLaunch, int, Path)} a bridge. */
    static NodeProcess gateway(GatewayLaunch launch, int httpPort, Path log) {
        return new NodeProcess("gateway of " + launch.site(), jar("gateway.wan.jar",
                "../wan-gateway/target/wan-gateway-exec.jar", "wan-gateway"), launch.arguments(),
                launch.environment(), launch.managementPassword(), httpPort, log);
    }

    private NodeProcess(String name, Path jar, List<String> arguments,
            Map<String, String> environment, @Nullable String managementPassword, int httpPort, Path log) {
        this.name = name;
        this.environment = environment;
        this.httpPort = httpPort;
        this.log = log;
        this.workDir = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", "") + "-cwd");
        authorization = "Basic " + Base64.getEncoder().encodeToString(
                ("user:" + managementPassword).getBytes(StandardCharsets.UTF_8));
        command = new ArrayList<>(List.of(System.getProperty("gateway.java", "java"), "-Xmx384m",
                "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                // The client compiler only: several of these JVMs start at once on a small machine, and the tests'
                // loads need no peak throughput.
                "-XX:TieredStopAtLevel=1", "-XX:ErrorFile=" + workDir.resolve("hs_err_pid%p.log")));
        this.jar = NodeJar.of(jar, Path.of(command.getFirst()));
        this.arguments = arguments;
    }

    static Path bridgeJar() {
        return jar("gateway.bridge.jar", "../db-bridge/target/db-bridge-exec.jar", "db-bridge");
    }

    private static Path jar(String property, String fallback, String module) {
        Path jar = Path.of(System.getProperty(property, fallback));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Executable jar not found at " + jar.toAbsolutePath()
                    + ": build it first with 'mvn -pl " + module + " -am package -DskipTests'");
        }
        return jar;
    }

    NodeProcess start() throws IOException {
        Files.createDirectories(workDir);
        // Core dumps on where the hard limit allows: a crash in a native thread that blocks signals (Cyclone DDS's
        // own threads do) kills the JVM before it can write its crash report, and the core is all that is left.
        List<String> shell = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -c unlimited 2>/dev/null; exec \"$@\"",
                "sh"));
        shell.addAll(command);
        NodeJar.Start launch = jar.start();
        shell.addAll(launch.arguments());
        shell.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(shell).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        process = builder.start();
        training = launch.training();
        if (training != null) {
            Path output = training;
            process.onExit().thenAccept(ended -> jar.trained(output, ended.exitValue()));
        }
        endedHere = false;
        return this;
    }

    /** Waits until the bridge reports UP on its health endpoint; fails at once if the process exits. */
    NodeProcess awaitUp(Duration timeout) {
        return awaitHealth(timeout, health -> health.statusCode() == 200 && health.body().contains("\"UP\""));
    }

    /**
     * Waits until the process answers on its health endpoint with a status of its parts, whatever it is: a gateway
     * whose peers are away reports its link down, and is running all the same.
     */
    NodeProcess awaitAnswering(Duration timeout) {
        return awaitHealth(timeout, health -> health.body().contains("\"components\""));
    }

    private NodeProcess awaitHealth(Duration timeout, Predicate<HttpResponse<String>> ready) {
        await().alias(name + " UP (see " + log + ")").atMost(timeout).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(IOException.class) // not listening yet
                .failFast(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException(exitReport());
                    }
                })
                .until(() -> ready.test(get("/actuator/health")));
        return this;
    }

    /** How the process ended, its log's last lines and, after a crash, where it crashed. */
    private String exitReport() {
        return NodeCrash.describe(name, process.exitValue()) + "; see " + log + "; it ends:\n" + logTail()
                + NodeCrash.report(process.exitValue(), workDir, Path.of(command.getFirst()));
    }

    /**
     * The log's last lines, from Spring Boot's failure report on if there is one: a build machine keeps the test's
     * output, not its temporary directory.
     */
    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            int from = Math.max(0, lines.size() - LOG_TAIL);
            for (int i = lines.size() - 1; i >= from; i--) {
                if (lines.get(i).contains("APPLICATION FAILED TO START")) {
                    from = i;
                    break;
                }
            }
            return String.join("\n", lines.subList(from, lines.size()));
        }
        catch (IOException ex) {
            return "(log unreadable: " + ex + ")";
        }
    }

    /** Whether the process still runs (or how it ended), where its log is and how it ends, for a failure report. */
    String logEnd() {
        if (process != null && !process.isAlive()) {
            return exitReport();
        }
        return name + " runs; its log " + log + " ends:\n" + logTail();
    }

    /** A management endpoint, asked with the node's credential. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .header("Authorization", authorization).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Asserts that {@code health} (an {@code /actuator/health} body) shows in {@code component} a broker of a pair that
     * is the backup and holds its primary's journal: what an operator checks before taking the primary down.
     */
    static void assertSynchronizedBackup(String health, String component) {
        String details = "$.components." + component + ".details.";
        assertThat((String) JsonPath.read(health, details + "pairRole")).as(health).isEqualTo("backup");
        assertThat((Boolean) JsonPath.read(health, details + "pairSynchronized")).as(health).isTrue();
    }

    /** SIGKILL: the process gets no chance to flush, acknowledge or say goodbye. */
    void kill() throws InterruptedException {
        endedHere = true;
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * SIGSTOP: the process stops where it is and its connections stay open, as those of a machine that hangs or is
     * cut from the network: its peers and its database see an idle client, not a closed one.
     */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT: a frozen process runs on from where it stopped. */
    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** The process's exit code once it has ended by itself. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " still runs after " + timeout);
        }
        return process.exitValue();
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && !process.isAlive() && !endedHere && process.exitValue() > 128) {
            // A crash the test did not cause, and may only see as messages that never arrived: say it here.
            System.err.println(exitReport());
        }
        if (process != null && process.isAlive()) {
            endedHere = true;
            process.destroy();
            // A training run writes its jar's cache as it exits, which takes some seconds more.
            if (!process.waitFor(training == null ? 20 : 120, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}

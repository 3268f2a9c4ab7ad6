package kr.c4i.gateway.scenarios.node;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.scenarios.net.EmulatedNetwork;

/**
 * One node (its PostgreSQL and bridge, one JVM from the jar users deploy) running in its host's namespace. Its
 * console goes to a log file; the harness waits for its READY line. Stopping is graceful (SIGTERM, then SIGKILL of
 * what is left in the namespace); an emergency stop is the network's ({@link EmulatedNetwork#emergencyStop}),
 * after which {@link #crashed} and a new {@link #start} bring it back with the same data.
 */
public final class GatewayNode implements AutoCloseable {

    /** The tools jar's READY line, of a {@code node} or a {@code wan} gateway. */
    static final Pattern READY = Pattern.compile(
            "READY (?:node|wan)=(\\S+) http=(\\d+) jdbc=jdbc:postgresql://[^:/]+:(\\d+)/.*");

    /** Lines worth a timestamp: Artemis bridges (re)connecting, DDS discovery. */
    private static final Pattern EVENT = Pattern.compile("AMQ221027|AMQ224091|[Mm]atched|[Dd]iscover");

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration TERM_GRACE = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 40;

    private final NodeSpec spec;
    private final List<String> command;
    private final Path consoleLog;
    private final Path socketDir;
    private final @Nullable Path passwordFile;
    private final java.util.Map<String, String> environment;
    private final EmulatedNetwork network;
    private final List<LogEvent> events = new CopyOnWriteArrayList<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private @Nullable Process process;
    private @Nullable InterfaceDatabase database;
    private volatile @Nullable Matcher ready;
    private @Nullable Instant startedAt;
    private @Nullable Instant readyAt;

    /**
     * A line of the node's console and when it was written (the node's own log timestamp, same clock).
     *
     * @param at when
     * @param line the line
     */
    public record LogEvent(Instant at, String line) {
    }

    /** @param passwordFile where the node keeps its PostgreSQL password ({@code <work-dir>/<id>/postgres.password}) */
    public GatewayNode(NodeSpec spec, List<String> command, Path consoleLog, Path socketDir, Path passwordFile,
            EmulatedNetwork network) {
        this(spec, command, spec.environment(), consoleLog, socketDir, passwordFile, network);
    }

    /**
     * A process that has no interface database of its own (a WAN gateway): the harness only waits for its READY
     * line and stops it.
     *
     * @param environment its secrets
     */
    public static GatewayNode withoutInterfaceDatabase(NodeSpec spec, List<String> command,
            java.util.Map<String, String> environment, Path consoleLog, Path socketDir, EmulatedNetwork network) {
        return new GatewayNode(spec, command, environment, consoleLog, socketDir, null, network);
    }

    private GatewayNode(NodeSpec spec, List<String> command, java.util.Map<String, String> environment,
            Path consoleLog, Path socketDir, @Nullable Path passwordFile, EmulatedNetwork network) {
        this.spec = spec;
        this.command = List.copyOf(command);
        this.environment = java.util.Map.copyOf(environment);
        this.consoleLog = consoleLog;
        this.socketDir = socketDir;
        this.passwordFile = passwordFile;
        this.network = network;
    }

    public NodeSpec spec() {
        return spec;
    }

    public String id() {
        return spec.id();
    }

    public int host() {
        return spec.host();
    }

    /**
     * Starts the node and waits for its READY line.
     *
     * @throws NodeStartException if it exits or is not ready in time; the message has the end of its console
     */
    public synchronized void start(Duration timeout) throws NodeStartException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("node " + id() + " is running");
        }
        ready = null;
        readyAt = null;
        CountDownLatch readyLatch = new CountDownLatch(1);
        try {
            Files.createDirectories(socketDir);
            Files.createDirectories(consoleLog.getParent());
            Files.writeString(consoleLog, "---- start " + Instant.now() + ": " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            startedAt = Instant.now();
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            // The secrets in the environment (ip netns exec keeps it), not on the logged command line.
            builder.environment().putAll(environment);
            process = builder.start();
        }
        catch (IOException ex) {
            throw new NodeStartException("Unable to start node " + id() + ": " + ex.getMessage(), ex);
        }
        Process running = process;
        Thread.ofPlatform().daemon().name("console-" + id()).start(() -> readConsole(running, readyLatch));
        Instant deadline = Instant.now().plus(timeout);
        try {
            while (!readyLatch.await(200, TimeUnit.MILLISECONDS)) {
                if (!running.isAlive()) {
                    throw new NodeStartException("Node " + id() + " exited with code " + running.exitValue()
                            + " before it was ready; its console (" + consoleLog + ") ends with:\n" + tail(), null);
                }
                if (Instant.now().isAfter(deadline)) {
                    network.killAll(host());
                    throw new NodeStartException("Node " + id() + " not ready within " + timeout.toSeconds()
                            + " s; its console (" + consoleLog + ") ends with:\n" + tail(), null);
                }
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            network.killAll(host());
            throw new NodeStartException("Interrupted while node " + id() + " started", ex);
        }
        Matcher line = ready;
        if (database != null) {
            database.close();
        }
        if (passwordFile != null) {
            database = new InterfaceDatabase(socketDir, Integer.parseInt(line.group(3)), password(passwordFile));
        }
    }

    /** Written by the node on its first start, so it is there once the node is READY. */
    private String password(Path passwordFile) throws NodeStartException {
        try {
            return Files.readString(passwordFile).strip();
        }
        catch (IOException ex) {
            throw new NodeStartException("Node " + id() + " is ready but its PostgreSQL password is not readable at "
                    + passwordFile + ": " + ex.getMessage(), ex);
        }
    }

    /** The JVM's pid (the namespace also holds its PostgreSQL). */
    public long pid() {
        Process p = process;
        if (p == null) {
            throw new IllegalStateException("node " + id() + " was never started");
        }
        return p.pid();
    }

    public boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** From launching the JVM to its READY line, for the last start. */
    public Duration bootTime() {
        if (startedAt == null || readyAt == null) {
            return Duration.ZERO;
        }
        return Duration.between(startedAt, readyAt);
    }

    public @Nullable Instant readyAt() {
        return readyAt;
    }

    public InterfaceDatabaseClient database() {
        InterfaceDatabase db = database;
        if (db == null) {
            throw new IllegalStateException("node " + id() + " is not ready");
        }
        return db.client();
    }

    /** The first console event at or after {@code after} whose line matches. */
    public Optional<LogEvent> eventAfter(Instant after, Predicate<String> match) {
        return events.stream().filter(e -> !e.at().isBefore(after) && match.test(e.line())).findFirst();
    }

    /** After the network's emergency stop killed everything in the namespace: wait for the JVM to be gone. */
    public synchronized void crashed() {
        Process p = process;
        if (p != null) {
            try {
                p.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        if (database != null) {
            database.close();
        }
    }

    /** SIGTERM (the node stops its bridge and database), then SIGKILL for whatever is left in the namespace. */
    public synchronized void stop() {
        if (database != null) {
            database.close();
        }
        Process p = process;
        if (p == null) {
            return;
        }
        if (p.isAlive()) {
            p.destroy();
            try {
                p.waitFor(TERM_GRACE.toSeconds(), TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        network.killAll(host());
    }

    @Override
    public void close() {
        stop();
    }

    private void readConsole(Process running, CountDownLatch readyLatch) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8));
                BufferedWriter out = Files.newBufferedWriter(consoleLog, StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                Instant now = Instant.now();
                out.write(line);
                out.newLine();
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                Matcher m = READY.matcher(line);
                if (ready == null && m.matches()) {
                    readyAt = now;
                    ready = m;
                    out.flush();
                    readyLatch.countDown();
                }
                else if (EVENT.matcher(line).find()) {
                    events.add(new LogEvent(logTime(line, now), line));
                }
            }
        }
        catch (IOException ex) {
            // the process is gone; its exit code tells the rest
        }
    }

    /** The timestamp a Spring Boot console line starts with, else {@code fallback}. */
    static Instant logTime(String line, Instant fallback) {
        int space = line.indexOf(' ');
        if (space < 20) {
            return fallback;
        }
        try {
            return Instant.parse(line.substring(0, space));
        }
        catch (DateTimeParseException ex) {
            return fallback;
        }
    }

    private String tail() {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }
}

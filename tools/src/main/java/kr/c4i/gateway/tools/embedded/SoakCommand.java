package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tools.ExitCode;

/**
 * Runs two embedded nodes under a steady load for a long time and tells whether anything grows that should not:
 * memory, threads, open files. The load, the nodes and the checks are the bench's (RELIABLE types, 200-byte bodies,
 * secured by default); what is new is the sampling, the verdict and the plot.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run two embedded nodes under a steady load and tell whether memory, threads or open files grow.",
        description = { "Starts nodes a and b (each with its own PostgreSQL and bridge, secured unless --plain), "
                + "writes --rate 200-byte messages of RELIABLE types a second into node a's outbox for --duration, and "
                + "samples every --sample-every: this JVM's resident memory and heap after a full GC, its GC time, "
                + "threads and open files (the nodes' bridges and brokers run in it, with the load generator), each "
                + "node's PostgreSQL memory (PSS of the postmaster and its backends, private and shared), open files "
                + "and database size, the outbox and inbox lag, and the latency of the messages that arrived since "
                + "the last sample.",
                "With --transport both, JMS then DDS, each for --duration, in this one JVM.",
                "Verdict: for the JVM's memory, heap, threads and open files and each PostgreSQL's private memory, "
                        + "the growth from the sample at 10 minutes (at a sixth of a shorter run) to "
                        + "the last; flat under 10%%. After the load stops the bridge drains (at most 5 minutes) and "
                        + "node b's inbox must hold every outbox row exactly once.",
                "Samples go to <output-dir>/<transport>.csv as they are taken; the .json (samples, verdict, "
                        + "delivery), the .svg plot and summary.txt are rewritten as the run goes, so Ctrl-C stops "
                        + "the run cleanly and keeps what it measured. Exit code 3 when anything grew or a message "
                        + "was lost." })
final class SoakCommand implements Callable<Integer> {

    /** The bench's messages, so that a soak's latency reads against the bench's. */
    private static final int MESSAGE_SIZE = 200;

    private static final Duration DRAIN_LIMIT = Duration.ofMinutes(5);
    /** The load is paced to end with the run; past this, it fell behind and is stopped. */
    private static final Duration LOAD_GRACE = Duration.ofSeconds(10);
    /** How long Ctrl-C waits for the run to write its files and stop its nodes. */
    private static final Duration STOP_LIMIT = Duration.ofMinutes(1);
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    /** Which transports to soak. */
    enum Transports {
        JMS, DDS, BOTH;

        List<TransportKind> kinds() {
            return this == BOTH ? List.of(TransportKind.JMS, TransportKind.DDS)
                    : List.of(TransportKind.valueOf(name()));
        }
    }

    /** Reads {@code --transport}: jms, dds, both. */
    static final class TransportsConverter extends OptionValues.OneOf<Transports> {
        TransportsConverter() {
            super(Transports.class);
        }
    }

    @Spec
    CommandSpec spec;

    @Option(names = { "-t", "--transport" }, defaultValue = "both", converter = TransportsConverter.class,
            description = "jms, dds or both (one after the other, each for --duration).")
    Transports transports;

    @Option(names = { "-r", "--rate" }, defaultValue = "500", converter = OptionValues.PositiveInt.class,
            description = "Messages per second written into node a's outbox.")
    int rate;

    @Option(names = "--duration", defaultValue = "1h", converter = OptionValues.PositiveDuration.class,
            description = "How long the load runs per transport (e.g. 1h, 3m, 40s); the drain and the check follow.")
    Duration duration;

    @Option(names = "--sample-every", defaultValue = "1m", converter = OptionValues.PositiveDuration.class,
            description = "Time between samples; one more is taken at the end.")
    Duration sampleEvery;

    @Option(names = "--plain", description = "Security off: brokers in plain TCP and DDS without DDS Security.")
    boolean plain;

    @Option(names = "--keep-data", description = "Keep the databases and broker journals under runs/ at the end and "
            + "say where.")
    boolean keepData;

    @Option(names = { "-o", "--output-dir" }, description = "Where the samples (CSV, JSON), the plots (SVG), the "
            + "nodes' log and summary.txt go (default: results/soak-<timestamp>).")
    @Nullable Path outputDir;

    /** Counted down by Ctrl-C (SIGINT) or SIGTERM: the run stops sampling and writes what it has. */
    private final CountDownLatch stop = new CountDownLatch(1);

    /**
     * What one transport's soak came to.
     *
     * @param lines its part of the summary
     * @param ok every figure flat and every message delivered once
     */
    private record Outcome(List<String> lines, boolean ok) {
    }

    @Override
    public Integer call() throws Exception {
        SoakVerdict.tooShort(duration, sampleEvery).ifPresent(why -> {
            throw new ParameterException(spec.commandLine(), why);
        });
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path results;
        try {
            results = outputDir != null ? Files.createDirectories(outputDir).toAbsolutePath()
                    : ClusterOptions.createUnique(Path.of("results").toAbsolutePath(),
                            "soak-" + LocalDateTime.now().format(TIMESTAMP));
        }
        catch (IOException ex) {
            err.printf("Unable to create the output directory %s: %s%n", outputDir, ex.getMessage());
            return ExitCode.SOFTWARE.code();
        }
        ClusterOptions data = ClusterOptions.removedWhateverTheOutcome();
        if (keepData) {
            data.keepData();
        }
        Optional<Path> work = data.workDir("soak", err);
        if (work.isEmpty()) {
            return ExitCode.SOFTWARE.code();
        }
        // The JVM halts once its shutdown hooks return: this one holds it until the run has written its files and
        // stopped its nodes and databases (Spring's own hook closes the bridges meanwhile).
        CountDownLatch finished = new CountDownLatch(1);
        Thread onStop = Thread.ofPlatform().name("soak-stop").unstarted(() -> {
            stop.countDown();
            try {
                finished.await(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(onStop);
        int exitCode = ExitCode.SOFTWARE.code();
        try {
            List<String> summary = new ArrayList<>();
            boolean ok = true;
            for (TransportKind kind : transports.kinds()) {
                if (stopped()) {
                    break;
                }
                Outcome outcome = soak(kind, work.get().resolve(kind.label()), results, out);
                summary.addAll(outcome.lines());
                ok &= outcome.ok();
                Files.write(results.resolve("summary.txt"), summary);
            }
            out.println();
            summary.forEach(out::println);
            out.println("Samples, plots, log and summary in " + results);
            out.flush();
            exitCode = ok && !stopped() ? ExitCode.OK.code() : ExitCode.TARGET_MISSED.code();
            return exitCode;
        }
        finally {
            data.cleanUp(exitCode, out);
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onStop);
            }
            catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running, and returns now
            }
        }
    }

    private boolean stopped() {
        return stop.getCount() == 0;
    }

    private Outcome soak(TransportKind kind, Path workDir, Path results, PrintWriter out) throws Exception {
        Optional<LoadAverage> loadAtStart = LoadAverage.read();
        String security = plain ? "plain" : "secured";
        out.printf("Soak over %s: 2 nodes, %s, %d msg/s of %d-byte RELIABLE messages for %s, a sample every %s%n",
                kind, security, rate, MESSAGE_SIZE, OptionValues.spelling(duration),
                OptionValues.spelling(sampleEvery));
        out.printf("  nodes a and b run in this JVM (pid %d) with the load generator, so its figures are theirs "
                + "together; each node's PostgreSQL is a process tree of its own%n", ProcessHandle.current().pid());
        out.printf("  work dir %s, samples in %s%n", workDir, results);
        out.flush();
        Path log = results.resolve(kind.label() + "-gateway.log");
        List<ProcessHandle> servers = new ArrayList<>();
        // zonky's own shutdown hook would stop the databases on Ctrl-C while the run still reads them, and delete their
        // data while the work directory goes: this command's hook lets the run close them itself. zonky deletes a
        // data directory on close unless told to keep it; the work directory is fresh, so nothing old is kept.
        try (EmbeddedCluster running = EmbeddedCluster.start(kind, 2, workDir, log, !plain,
                databases -> databases.setRegisterShutdownHook(false).setCleanDataDirectory(!keepData))) {
            for (EmbeddedNode node : running.nodes()) {
                servers.add(node.databaseServer());
            }
            List<NodeId> ids = running.nodes().stream().map(EmbeddedNode::id).toList();
            List<SoakMetric> metrics = SoakMetric.all(ids);
            String title = String.format(Locale.ROOT, "gateway soak over %s: 2 nodes in one JVM, %s, %d msg/s of "
                    + "%d-byte messages, %s UTC", kind, security, rate, MESSAGE_SIZE,
                    LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")));
            SoakFiles files = new SoakFiles(results, kind.label(), title, metrics, run(kind, loadAtStart),
                    duration);
            LoadDriver driver = new LoadDriver(new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA",
                    MESSAGE_SIZE, true, 7), running.publisher().database());
            long planned = duration.toMillis() * rate / 1000;
            ExecutorService load = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("soak-load").factory());
            Instant start = Instant.now();
            Future<?> loading = load.submit(() -> {
                driver.drive(planned, rate, 0);
                return null;
            });
            boolean interrupted = false;
            boolean behind = false;
            try {
                interrupted = sample(new SoakSampler(running, driver::good, start), files, ids, start, loading, out);
                if (!interrupted) {
                    loading.get(LOAD_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            catch (TimeoutException ex) {
                behind = true;
            }
            finally {
                load.shutdownNow();
                load.awaitTermination(1, TimeUnit.MINUTES);
            }
            List<String> lines = new ArrayList<>();
            lines.add(String.format(Locale.ENGLISH, "Soak over %s (%s, %d msg/s for %s, a sample every %s):", kind,
                    security, rate, OptionValues.spelling(duration), OptionValues.spelling(sampleEvery)));
            lines.add(String.format(Locale.ENGLISH, "  load: %,d messages written of %,d planned%s", driver.good(),
                    planned, behind ? ": it fell behind and was stopped at the end" : ""));
            SoakVerdict verdict = SoakVerdict.of(metrics, files.samples(), duration);
            verdict.lines().forEach(line -> lines.add("  " + line));
            Optional<SoakDelivery> delivery = Optional.empty();
            if (interrupted) {
                lines.add("  stopped after " + ProgressLine.duration(Duration.between(start, Instant.now()))
                        + ": no drain, no delivery check");
            }
            else {
                out.printf("  load stopped; draining (at most %s) ...%n", ProgressLine.duration(DRAIN_LIMIT));
                out.flush();
                delivery = Optional.of(drain(running, driver.good()));
                lines.add("  " + delivery.get().line(running.receivers().getFirst().id().value()));
            }
            files.write(verdict, delivery);
            lines.add("  load average (1/5/15 min): " + loadAtStart.map(LoadAverage::toString).orElse("n/a")
                    + " at start, " + LoadAverage.read().map(LoadAverage::toString).orElse("n/a") + " at end");
            lines.add("  files: " + results.relativize(files.csv()) + ", " + results.relativize(files.json()) + ", "
                    + results.relativize(files.svg()) + ", " + results.relativize(log));
            return new Outcome(lines, !interrupted && verdict.flat() && delivery.get().lossless());
        }
        finally {
            awaitExit(servers);
        }
    }

    /** Waits for the database servers to be gone, so that nothing runs on after the command, and says if one does. */
    private static void awaitExit(List<ProcessHandle> servers) throws InterruptedException {
        for (ProcessHandle server : servers) {
            try {
                server.onExit().get(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS);
            }
            catch (ExecutionException | TimeoutException ex) {
                System.err.println("PostgreSQL server " + server.pid() + " still runs after " + STOP_LIMIT.toSeconds()
                        + " s");
            }
        }
    }

    /**
     * Takes a sample at the start, at every multiple of {@link #sampleEvery} and at the end, each written out as it is
     * taken and one line printed. Returns whether Ctrl-C stopped the run first.
     */
    private boolean sample(SoakSampler sampler, SoakFiles files, List<NodeId> ids, Instant start,
            Future<?> loading, PrintWriter out) throws Exception {
        Instant end = start.plus(duration);
        for (long k = 0;; k++) {
            Instant due = start.plus(sampleEvery.multipliedBy(k));
            due = due.isAfter(end) ? end : due;
            long wait = Duration.between(Instant.now(), due).toNanos();
            if (stop.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                return true;
            }
            if (loading.isDone()) {
                // A load that failed fails the run, with its cause.
                loading.get();
            }
            SoakSample sample;
            try {
                sample = sampler.sample();
            }
            catch (SQLException | IOException ex) {
                if (stopped()) {
                    return true;
                }
                throw ex;
            }
            files.add(sample);
            out.println(progress(sample, ids));
            out.flush();
            if (!due.isBefore(end)) {
                return false;
            }
        }
    }

    /** Waits until node b's inbox holds as many rows as node a's outbox, then compares the two sets of ids. */
    private SoakDelivery drain(EmbeddedCluster running, long written) throws SQLException, InterruptedException {
        DataSource outbox = running.publisher().database();
        DataSource inbox = running.receivers().getFirst().database();
        Instant from = Instant.now();
        long outboxRows = InboxProbe.count(outbox, "SELECT count(*) FROM outbox");
        InboxProbe.Arrivals arrivals = new InboxProbe.Arrivals(inbox, "inbox");
        boolean drained = arrivals.reached(outboxRows);
        while (!drained && Duration.between(from, Instant.now()).compareTo(DRAIN_LIMIT) < 0
                && !stop.await(200, TimeUnit.MILLISECONDS)) {
            drained = arrivals.reached(outboxRows);
        }
        Duration took = Duration.between(from, Instant.now());
        InboxProbe.Fingerprint sent = InboxProbe.outboxFingerprint(outbox);
        InboxProbe.Fingerprint received = InboxProbe.inboxFingerprint(inbox);
        return new SoakDelivery(written, sent.rows(), InboxProbe.backlog(outbox), received.rows(),
                sent.equals(received), took, drained);
    }

    /** What the JSON says of the run besides its samples. */
    private Map<String, Object> run(TransportKind kind, Optional<LoadAverage> loadAtStart) {
        Map<String, Object> run = new LinkedHashMap<>();
        // The parse result's arguments are the whole command line's, "soak" first.
        run.put("command", "gateway " + String.join(" ", spec.commandLine().getParseResult().originalArgs()));
        run.put("transport", kind.label());
        run.put("secured", !plain);
        run.put("rate_per_s", rate);
        run.put("message_bytes", MESSAGE_SIZE);
        run.put("duration_s", duration.toMillis() / 1000.0);
        run.put("sample_every_s", sampleEvery.toMillis() / 1000.0);
        run.put("started", Instant.now().toString());
        run.put("load_average_at_start", loadAtStart.map(LoadAverage::toString).orElse(null));
        run.put("cores", Runtime.getRuntime().availableProcessors());
        run.put("java", Runtime.version().toString());
        run.put("processes", "nodes a and b (bridges, brokers, DDS participants) and the load generator in one JVM, "
                + "pid " + ProcessHandle.current().pid() + "; each node's PostgreSQL a process tree of its own");
        return run;
    }

    /** One line per sample: the figures a person watches, in the order of the CSV. */
    private static String progress(SoakSample s, List<NodeId> ids) {
        StringBuilder line = new StringBuilder("  " + clock(s.elapsed()));
        line.append("  jvm rss ").append(figure(s, SoakMetric.JVM_RSS, "%.0f MB"))
                .append(", heap ").append(figure(s, SoakMetric.HEAP_AFTER_GC, "%.0f MB"))
                .append(", gc ").append(figure(s, SoakMetric.GC_TIME, "%.0f ms"))
                .append(", threads ").append(figure(s, SoakMetric.JVM_THREADS, "%.0f"))
                .append(", fds ").append(figure(s, SoakMetric.JVM_OPEN_FILES, "%.0f"));
        for (NodeId id : ids) {
            line.append(" | pg ").append(id).append(' ').append(figure(s, SoakMetric.databaseMemory(id), "%.0f MB"))
                    .append(" (private ").append(figure(s, SoakMetric.databasePrivateMemory(id), "%.0f MB"))
                    .append("), ").append(figure(s, SoakMetric.databaseOpenFiles(id), "%.0f fds"))
                    .append(", db ").append(figure(s, SoakMetric.databaseSize(id), "%.0f MB"));
        }
        line.append(" | lag ").append(figure(s, SoakMetric.OUTBOX_LAG, "%.0f")).append('/')
                .append(figure(s, SoakMetric.INBOX_LAG, "%.0f"))
                .append(", ").append(figure(s, SoakMetric.DELIVERED, "%.0f msg/s"))
                .append(", p50 ").append(figure(s, SoakMetric.LATENCY_P50, "%.1f ms"))
                .append(", p99 ").append(figure(s, SoakMetric.LATENCY_P99, "%.1f ms"))
                .append(" | load ").append(figure(s, SoakMetric.LOAD, "%.1f"));
        return line.toString();
    }

    /** The figure as {@code format} writes it, or {@code -} when it was not read. */
    private static String figure(SoakSample sample, SoakMetric metric, String format) {
        double value = sample.value(metric);
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format, value);
    }

    /** {@code 7:30}, {@code 1:02:00}. */
    private static String clock(Duration elapsed) {
        return elapsed.toHours() > 0
                ? String.format(Locale.ROOT, "%d:%02d:%02d", elapsed.toHours(), elapsed.toMinutesPart(),
                        elapsed.toSecondsPart())
                : String.format(Locale.ROOT, "%d:%02d", elapsed.toMinutes(), elapsed.toSecondsPart());
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import javax.sql.DataSource;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.tools.embedded.InboxProbe.Latency;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.JitWarmUp;
import kr.c4i.gateway.tools.WarmUpTidy;

/**
 * Measures the bridge end to end between two nodes on this machine: sustained throughput with the
 * outbox fed as fast as the database takes rows, then latency at a fixed rate. Times come from the
 * databases' own clocks (outbox insert to inbox insert), so the figures include everything.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Measure end-to-end throughput and latency between two embedded nodes.",
        description = "Messages are of RELIABLE catalogue types only, for both transports. "
                + "Phase 1 inserts --messages messages into node a's outbox as fast as possible and reports "
                + "messages per second from the first outbox insert to the last inbox insert. Phase 2 inserts at "
                + "--latency-rate messages per second for --latency-seconds and reports p50/p99 latency. "
                + "Phase 3 (the reference) moves the same number of rows, of the same generator and size, with "
                + "PostgreSQL's own logical replication between two more embedded clusters, no gateway involved, "
                + "and reports the bridge's throughput over the reference's and the load average.")
final class BenchCommand implements Callable<Integer> {

    /** How long a warm-up round after the first lasts, about: long enough that its JIT share is not noise. */
    private static final Duration WARM_ROUND = Duration.ofSeconds(5);

    @Spec
    CommandSpec spec;

    /** Its data go at the end, target met or missed: the output holds the figures. */
    @Mixin
    ClusterOptions cluster = ClusterOptions.removedWhateverTheOutcome();

    @Option(names = "--warmup", defaultValue = "30000", converter = OptionValues.NonNegativeLong.class,
            description = "Messages sent before measuring; then rounds of about 5 s (at least a third as many "
                    + "messages) until the JIT compiler took under 5%% of the JVM's CPU in two rounds in a row (at "
                    + "most --warmup-limit), so that the figures are the bridge's steady state. 0: no warm-up.")
    long warmup;

    @Option(names = "--warmup-limit", defaultValue = "4m", converter = OptionValues.PositiveDuration.class,
            description = "How long the warm-up may wait for the JIT compiler to be quiet before measuring anyway "
                    + "(90s, 5m or PT5M).")
    Duration warmupLimit;

    @Option(names = { "-m", "--messages" }, defaultValue = "50000", converter = OptionValues.PositiveLong.class,
            description = "Messages in the throughput phase.")
    long messages;

    @Option(names = "--latency-rate", defaultValue = "1000", converter = OptionValues.PositiveInt.class,
            description = "Messages per second in the latency phase.")
    int latencyRate;

    @Option(names = "--latency-seconds", defaultValue = "30", converter = OptionValues.PositiveInt.class,
            description = "Length of the latency phase.")
    int latencySeconds;

    @Option(names = "--target-throughput", defaultValue = "5000", converter = OptionValues.PositiveDouble.class,
            description = "Messages per second to reach.")
    double targetThroughput;

    @Option(names = "--target-p99", defaultValue = "100", converter = OptionValues.PositiveDouble.class,
            description = "p99 latency in ms to stay under.")
    double targetP99;

    @Option(names = "--no-reference", description = "Skip the reference (PostgreSQL logical replication).")
    boolean noReference;

    @Option(names = "--profile", description = "Print, per message of the throughput phase (and per row of the "
            + "reference's), the CPU time of the machine, of this JVM and of each PostgreSQL server, and for each "
            + "database its statements, commits, WAL flushes and wait events (pg_stat_statements, pg_stat_wal, "
            + "pg_stat_activity).")
    boolean profile;

    private double bridgeThroughput;
    /** How fast the throughput phase's load generator got its rows into node a's outbox. */
    private double bridgeFedPerSecond;
    private ReplicationReference.Durability durability;
    /** The messages the warm-up took, which the reference then feeds too, so both measure tables of one size. */
    private long warmedUpWith;

    /** Checked against the catalogue in its setter. */
    int size;

    @Option(names = "--size", defaultValue = "200", description = "Body size in bytes.")
    void size(int bytes) {
        int largest = KmtfCatalogue.loadDefault().types().stream().filter(t -> t.reliability() == Reliability.RELIABLE)
                .mapToInt(MessageType::maxSize).max().orElse(0);
        if (bytes < 1 || bytes > largest) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--size': " + bytes
                    + " is out of range: use 1 to " + largest + ", the largest RELIABLE catalogue type");
        }
        size = bytes;
    }

    @Override
    public Integer call() throws Exception {
        Optional<LoadAverage> loadAtStart = LoadAverage.read();
        PrintWriter out = spec.commandLine().getOut();
        Optional<Path> made = cluster.workDir("bench", spec.commandLine().getErr());
        if (made.isEmpty()) {
            return ExitCode.SOFTWARE.code();
        }
        Path workDir = made.get();
        int exitCode = measureBridge(out, workDir);
        Optional<ReplicationReference.Result> reference = Optional.empty();
        if (!noReference) {
            out.printf("  reference  %d + %d rows by PostgreSQL logical replication ...%n", warmedUpWith, messages);
            out.flush();
            try (ReplicationReference replication = ReplicationReference.start(workDir.resolve("reference"),
                    durability, profile ? BenchProfile::prepare : UnaryOperator.identity());
                    BenchProfile databases = new BenchProfile()) {
                reference = Optional.of(replication.measure(generator(), warmedUpWith, messages, profile ? databases : null,
                        out));
            }
        }
        new ReferenceComparison(bridgeThroughput, bridgeFedPerSecond, reference, loadAtStart, LoadAverage.read())
                .lines().forEach(out::println);
        out.flush();
        return exitCode;
    }

    private KmtfLoadGenerator generator() {
        return new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", size, true, 7);
    }

    private int measureBridge(PrintWriter out, Path workDir) throws Exception {
        String transport = cluster.transport.name().toLowerCase();
        out.printf("Benchmark over %s, 2 nodes, %d-byte messages (work dir %s)%n", transport, size, workDir);
        out.flush();
        try (EmbeddedCluster running = EmbeddedCluster.start(cluster.transport, 2, workDir,
                workDir.resolve("gateway.log"), !cluster.plain,
                profile ? BenchProfile::prepare : UnaryOperator.identity());
                BenchProfile databases = new BenchProfile()) {
            DataSource outbox = running.publisher().database();
            DataSource inbox = running.receivers().getFirst().database();
            KmtfLoadGenerator generator = generator();
            durability = ReplicationReference.Durability.of(outbox);

            warmUp(out, generator, outbox, inbox);
            WarmUpTidy.tidy(outbox, "outbox", "outbox_delivery");
            WarmUpTidy.tidy(inbox, "inbox");
            if (profile) {
                databases.add("node a (outbox)", outbox);
                databases.add("node b (inbox)", inbox);
                databases.start();
            }
            Instant throughputStart = Instant.now();
            long insertNanos = phase(out, "throughput", generator, outbox, inbox, messages, 0);
            if (profile) {
                databases.report(out, messages);
            }
            Latency throughput = InboxProbe.latency(inbox, throughputStart);
            bridgeThroughput = throughput.throughputPerSecond();
            bridgeFedPerSecond = messages / (insertNanos / 1e9);

            Instant latencyStart = Instant.now();
            phase(out, "latency", generator, outbox, inbox, (long) latencyRate * latencySeconds, latencyRate);
            Latency latency = InboxProbe.latency(inbox, latencyStart);
            Latency sent = InboxProbe.sentLatency(outbox, latencyStart);

            boolean throughputMet = throughput.throughputPerSecond() >= targetThroughput;
            boolean latencyMet = latency.p99Millis() < targetP99;
            out.println();
            out.printf("transport                : %s%n", running.publisher().transportKind());
            out.printf("message size             : %d bytes%n", size);
            out.printf("throughput               : %.0f msg/s over %d messages (outbox fed at %.0f msg/s) -> target >= %.0f: %s%n",
                    throughput.throughputPerSecond(), throughput.rows(), bridgeFedPerSecond, targetThroughput,
                    throughputMet ? "met" : "MISSED");
            out.printf("latency under full load  : p50 %.1f ms, p99 %.1f ms%n", throughput.p50Millis(), throughput.p99Millis());
            out.printf("latency at %d msg/s     : p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d messages -> p99 < %.0f ms: %s%n",
                    latencyRate, latency.p50Millis(), latency.p99Millis(), latency.maxMillis(), latency.rows(), targetP99,
                    latencyMet ? "met" : "MISSED");
            out.printf("  of it at node a        : p50 %.1f ms, p99 %.1f ms (insert to marked sent: claimed, sent, marked)%n",
                    sent.p50Millis(), sent.p99Millis());
            out.flush();
            return throughputMet && latencyMet ? ExitCode.OK.code() : ExitCode.TARGET_MISSED.code();
        }
    }

    /**
     * Sends {@link #warmup} messages, then rounds of about {@link #WARM_ROUND} each (at least a third of
     * {@link #warmup}) until the JIT compiler is quiet ({@link JitWarmUp}), at most {@link #warmupLimit}: with rounds of
     * a fixed 10,000 messages, half a second each at today's rates, 30 rounds left the C2 compiler taking a third of
     * the JVM's CPU through the JMS throughput phase, which the phase's figures then counted as the bridge's.
     */
    private void warmUp(PrintWriter out, KmtfLoadGenerator generator, DataSource outbox, DataSource inbox)
            throws Exception {
        if (warmup == 0) {
            return;
        }
        long[] next = { warmup };
        JitWarmUp.Outcome outcome = new JitWarmUp(warmupLimit).run((round) -> {
            long count = next[0];
            long start = System.nanoTime();
            phase(out, "warm-up", generator, outbox, inbox, count, 0);
            warmedUpWith += count;
            double seconds = (System.nanoTime() - start) / 1e9;
            next[0] = Math.max(Math.max(1, warmup / 3), (long) (count / seconds * WARM_ROUND.toSeconds()));
            return count + " messages";
        }, (round, what, share, took) -> out.printf("             the JIT compiler took %.0f%% of the JVM's CPU (%.1f s)%n",
                100 * share, took.toMillis() / 1e3));
        if (!outcome.quiet()) {
            out.printf("  the JIT still compiles after %d warm-up rounds in %d s; measuring anyway%n", outcome.rounds(),
                    outcome.took().toSeconds());
        }
    }

    /** Feeds {@code count} messages and waits until all are in the inbox; returns the feeding time in ns. */
    private long phase(PrintWriter out, String name, KmtfLoadGenerator generator, DataSource outbox, DataSource inbox,
            long count, int rate) throws Exception {
        out.printf("  %-10s %d messages%s ...%n", name, count, rate == 0 ? " as fast as possible" : " at " + rate + " msg/s");
        out.flush();
        // A phase's messages are created, and so received, after this instant; earlier phases have all arrived.
        InboxProbe.Arrivals arrivals = new InboxProbe.Arrivals(inbox, "inbox", Instant.now());
        long before = arrivals.rows();
        long start = System.nanoTime();
        new LoadDriver(generator, outbox).drive(count, rate, 0);
        long fed = System.nanoTime() - start;
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (!arrivals.reached(before + count)) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(name + " phase: only " + (arrivals.rows() - before) + " of "
                        + count + " messages arrived within 5 minutes");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return fed;
    }
}

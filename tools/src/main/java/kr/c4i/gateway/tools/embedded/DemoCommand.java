package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.tools.embedded.InboxProbe.Comparison;
import kr.c4i.gateway.tools.embedded.InboxProbe.Fingerprint;
import kr.c4i.gateway.tools.embedded.InboxProbe.Latency;
import kr.c4i.gateway.tools.embedded.ProgressLine.Phase;
import kr.c4i.gateway.tools.embedded.ProgressLine.Status;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.tools.ExitCode;

/** Shows the gateway at work: node a's application writes KMTF messages, the other nodes' inboxes fill. */
@Command(name = "demo", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run nodes on embedded defaults and move a synthetic KMTF load between them.",
        description = { "Starts N nodes (a, b, ...), each with its own PostgreSQL and bridge, writes synthetic KMTF "
                + "messages of many catalogue types into node a's outbox, shows live progress and ends with a summary.",
                "Every node's management URL (127.0.0.1: /actuator/health, /actuator/prometheus) is listed at "
                        + "start, with the file that holds its password for this run (HTTP Basic, user 'user'), and "
                        + "its dashboard page (/actuator/dashboard, same credential): live charts while the demo runs, "
                        + "and after it with --keep-running." })
final class DemoCommand implements Callable<Integer> {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final Set<String> RELIABLE = types(Reliability.RELIABLE);
    private static final Set<String> BEST_EFFORT = types(Reliability.BEST_EFFORT);

    @Spec
    CommandSpec spec;

    @Mixin
    ClusterOptions cluster;

    @Option(names = { "-n", "--nodes" }, defaultValue = "2", converter = OptionValues.NodeCount.class,
            description = "Nodes, the first publishing (2 to 26).")
    int nodes;

    @Option(names = { "-m", "--messages" }, defaultValue = "5000", converter = OptionValues.PositiveLong.class,
            description = "Valid messages to send.")
    long messages;

    @Option(names = { "-r", "--rate" }, defaultValue = "1000", converter = OptionValues.NonNegativeInt.class,
            description = "Messages per second (0: as fast as possible).")
    int rate;

    @Option(names = "--bad-every", defaultValue = "250", converter = OptionValues.NonNegativeInt.class,
            description = "Also write one malformed, oversize or unknown-type row after every N valid ones (0: none).")
    int badEvery;

    @Option(names = "--timeout", defaultValue = "5m", converter = OptionValues.PositiveDuration.class,
            description = "Give up waiting for deliveries after this (e.g. 90s, 5m).")
    Duration timeout;

    @Option(names = "--keep-running", description = "Keep the nodes up after the summary until Ctrl-C, to browse their endpoints.")
    boolean keepRunning;

    /** Checked against the catalogue in its setter. */
    int size;

    @Option(names = "--size", defaultValue = "0", description = "Body size in bytes (0: realistic mix).")
    void size(int bytes) {
        int largest = CATALOGUE.types().stream().mapToInt(MessageType::maxSize).max().orElse(0);
        if (bytes < 0 || bytes > largest) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--size': " + bytes
                    + " is out of range: use 0 (a realistic mix) to " + largest + ", the largest catalogue type");
        }
        size = bytes;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (keepRunning) {
            cluster.keepData();
        }
        Optional<Path> made = cluster.workDir("demo", spec.commandLine().getErr());
        if (made.isEmpty()) {
            return ExitCode.SOFTWARE.code();
        }
        Path workDir = made.get();
        Path log = workDir.resolve("gateway.log");
        out.printf("Starting %d nodes over %s in %s (log: %s)%n", nodes, cluster.transport.name().toLowerCase(),
                workDir, log);
        out.flush();
        try (EmbeddedCluster running = EmbeddedCluster.start(cluster.transport, nodes, workDir, log, !cluster.plain)) {
            for (EmbeddedNode node : running.nodes()) {
                out.printf("  node %s: %s over %s (%s)  management http://127.0.0.1:%d/actuator, user '%s', "
                        + "password in %s%n",
                        node.id(), node == running.publisher() ? "publishes" : "receives ", node.transportKind(),
                        node.security(), node.httpPort(), node.managementUser(), node.managementPasswordFile());
                out.printf("          dashboard %s (live while the demo runs)%n", dashboardUrl(node));
            }
            out.flush();
            Instant start = Instant.now();
            LoadDriver driver = new LoadDriver(new KmtfLoadGenerator(CATALOGUE, "NODEA", size, false, 42),
                    running.publisher().database());
            ExecutorService load = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("load").factory());
            Future<?> loading = load.submit(() -> {
                driver.drive(messages, rate, badEvery);
                return null;
            });
            long expected = messages * running.receivers().size();
            long expectedBad = badEvery == 0 ? 0 : messages / badEvery;
            boolean complete = watch(running, loading, expectedBad, start);
            load.shutdownNow();
            boolean ok = summarize(out, running, start, expected, expectedBad, complete);
            if (keepRunning) {
                out.println("Nodes keep running; press Ctrl-C to stop. Their data stays in " + workDir);
                out.flush();
                Thread.currentThread().join();
            }
            return ok ? ExitCode.OK.code() : ExitCode.TARGET_MISSED.code();
        }
    }

    private boolean watch(EmbeddedCluster running, Future<?> loading, long expectedBad, Instant start)
            throws Exception {
        Instant deadline = start.plus(timeout);
        long expected = messages * running.receivers().size();
        DataSource publisher = running.publisher().database();
        AtomicReference<Status> status = new AtomicReference<>(
                new Status(Phase.SENDING, 0, expected, 0, messages, 0, 0, "-"));
        try (ProgressBar bar = new ProgressBarBuilder().setInitialMax(expected).setUpdateIntervalMillis(250)
                .setMaxRenderedLength(160).continuousUpdate().setRenderer(new ProgressLine(status::get)).build()) {
            long lastDelivered = -1;
            int quietPolls = 0;
            while (Instant.now().isBefore(deadline)) {
                List<Long> inboxes = new ArrayList<>();
                for (EmbeddedNode receiver : running.receivers()) {
                    inboxes.add(InboxProbe.inbox(receiver.database()));
                }
                long delivered = ProgressLine.delivered(inboxes, messages);
                long sent = InboxProbe.sent(publisher);
                long quarantined = InboxProbe.quarantined(publisher);
                boolean loaded = loading.isDone();
                long unreceipted = loaded ? InboxProbe.unreceipted(publisher) : 0;
                // Sending lasts until the bridge has sent every row, not only until the load is in the outbox.
                Phase phase = !loaded || sent < messages ? Phase.SENDING
                        : unreceipted > 0 ? Phase.RECEIPTS : Phase.SETTLING;
                status.set(new Status(phase, delivered, expected, sent, messages, quarantined, unreceipted,
                        p99(running.receivers().getFirst())));
                bar.stepTo(delivered);
                if (loaded) {
                    loading.get();
                    quietPolls = delivered == lastDelivered ? quietPolls + 1 : 0;
                    // BEST_EFFORT types may drop over DDS, so done is also: every RELIABLE delivery receipted
                    // and nothing arrived for three seconds.
                    boolean settled = quietPolls >= 12 && unreceipted == 0;
                    if (quarantined >= expectedBad && (delivered >= expected || settled)) {
                        return true;
                    }
                }
                lastDelivered = delivered;
                TimeUnit.MILLISECONDS.sleep(250);
            }
        }
        return false;
    }

    /** The node's built-in dashboard page (service-support's DashboardEndpoint). */
    static String dashboardUrl(EmbeddedNode node) {
        return "http://127.0.0.1:" + node.httpPort() + "/actuator/dashboard";
    }

    private static String p99(EmbeddedNode receiver) {
        return receiver.latencyTimer().map(timer -> {
            for (ValueAtPercentile p : timer.takeSnapshot().percentileValues()) {
                if (p.percentile() == 0.99) {
                    return String.format("%.0f ms", p.value(TimeUnit.MILLISECONDS));
                }
            }
            return "-";
        }).orElse("-");
    }

    private boolean summarize(PrintWriter out, EmbeddedCluster running, Instant start, long expected,
            long expectedBad, boolean complete) throws Exception {
        EmbeddedNode publisher = running.publisher();
        Fingerprint sentReliable = InboxProbe.sentFingerprint(publisher.database(), RELIABLE);
        Fingerprint sentBestEffort = InboxProbe.sentFingerprint(publisher.database(), BEST_EFFORT);
        Map<String, Long> reasons = InboxProbe.quarantineReasons(publisher.database());
        long quarantined = reasons.values().stream().mapToLong(Long::longValue).sum();
        long sent = sentReliable.rows() + sentBestEffort.rows();
        boolean ok = quarantined == expectedBad && sent == expected / running.receivers().size();
        Set<String> sentBestEffortIds = InboxProbe.sentIds(publisher.database(), BEST_EFFORT);
        long unmatched = publisher.droppedSamples().getOrDefault("unmatched", 0L);
        long missingBestEffort = 0;
        long countedBestEffort = unmatched;
        out.println();
        out.printf("Summary (%s, %d nodes, %s)%n", publisher.transportKind(), nodes,
                ProgressLine.duration(Duration.between(start, Instant.now())));
        out.printf("  node %s outbox: %d sent (%d of RELIABLE types), %d quarantined %s, %d waiting%n", publisher.id(),
                sent, sentReliable.rows(), quarantined, reasons, InboxProbe.backlog(publisher.database()));
        for (EmbeddedNode receiver : running.receivers()) {
            Fingerprint reliable = InboxProbe.inboxFingerprint(receiver.database(), RELIABLE);
            Comparison bestEffort = Comparison.of(sentBestEffortIds,
                    InboxProbe.inboxIds(receiver.database(), BEST_EFFORT));
            Map<String, Long> dropped = receiver.droppedSamples();
            long counted = dropped.getOrDefault("lost", 0L) + dropped.getOrDefault("rejected", 0L);
            missingBestEffort += bestEffort.missing();
            countedBestEffort += counted;
            Latency latency = InboxProbe.latency(receiver.database(), start);
            boolean same = reliable.equals(sentReliable);
            ok &= same && bestEffort.unexpected() == 0;
            out.printf("  node %s inbox : RELIABLE %d, %s%n", receiver.id(), reliable.rows(),
                    same ? "exactly the sent set, each once" : "DIFFERS from the sent set");
            out.printf("                 BEST_EFFORT %d of %d, %s; drops counted here: %d lost, %d rejected%n",
                    bestEffort.received(), sentBestEffortIds.size(), bestEffort.missing() == 0
                            && bestEffort.unexpected() == 0 ? "exactly the sent set"
                                    : bestEffort.missing() + " missing, " + bestEffort.unexpected() + " never sent",
                    dropped.getOrDefault("lost", 0L), dropped.getOrDefault("rejected", 0L));
            out.printf("                 %.0f msg/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                    latency.throughputPerSecond(), latency.p50Millis(), latency.p99Millis(), latency.maxMillis());
        }
        if (publisher.transportKind().equals("dds")) {
            // Each missing BEST_EFFORT message must be a counted drop: unmatched at the sender, lost or rejected here.
            ok &= missingBestEffort == countedBestEffort;
            out.printf("  BEST_EFFORT drops: %d missing in all inboxes, %d counted (%d unmatched at node %s)%s%n",
                    missingBestEffort, countedBestEffort, unmatched, publisher.id(),
                    missingBestEffort == countedBestEffort ? "" : ": NOT ALL COUNTED");
        }
        if (!complete) {
            out.println("  (stopped waiting after " + ProgressLine.duration(timeout) + ")");
        }
        out.println(ok ? "Result: every RELIABLE message delivered exactly once; every bad row quarantined with its reason."
                : "Result: TARGET MISSED (see above and the log)");
        out.flush();
        return ok;
    }

    private static Set<String> types(Reliability reliability) {
        return CATALOGUE.types().stream().filter(t -> t.reliability() == reliability).map(MessageType::id)
                .collect(Collectors.toUnmodifiableSet());
    }
}

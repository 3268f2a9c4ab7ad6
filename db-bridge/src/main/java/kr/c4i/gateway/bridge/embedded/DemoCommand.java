package kr.c4i.gateway.bridge.embedded;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.bridge.embedded.InboxProbe.Comparison;
import kr.c4i.gateway.bridge.embedded.InboxProbe.Fingerprint;
import kr.c4i.gateway.bridge.embedded.InboxProbe.Latency;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/** Shows the gateway at work: node a's application writes KMTF messages, the other nodes' inboxes fill. */
@Command(name = "demo", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run nodes on embedded defaults and move a synthetic KMTF load between them.",
        description = { "Starts N nodes (a, b, ...), each with its own PostgreSQL and bridge, writes synthetic KMTF "
                + "messages of many catalogue types into node a's outbox, shows live progress and ends with a summary.",
                "Every node's management URL (127.0.0.1: /actuator/health, /actuator/prometheus) is listed at "
                        + "start, with the file that holds its password for this run (HTTP Basic, user 'user')." })
final class DemoCommand implements Callable<Integer> {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final Set<String> RELIABLE = types(Reliability.RELIABLE);
    private static final Set<String> BEST_EFFORT = types(Reliability.BEST_EFFORT);

    @Spec
    CommandSpec spec;

    @Mixin
    ClusterOptions cluster;

    @Option(names = { "-n", "--nodes" }, defaultValue = "2", description = "Nodes, the first publishing.")
    int nodes;

    @Option(names = { "-m", "--messages" }, defaultValue = "5000", description = "Valid messages to send.")
    long messages;

    @Option(names = { "-r", "--rate" }, defaultValue = "1000", description = "Messages per second (0: as fast as possible).")
    int rate;

    @Option(names = "--size", defaultValue = "0", description = "Body size in bytes (0: realistic mix).")
    int size;

    @Option(names = "--bad-every", defaultValue = "250",
            description = "Also write one malformed, oversize or unknown-type row after every N valid ones (0: none).")
    int badEvery;

    @Option(names = "--timeout", defaultValue = "PT5M", description = "Give up waiting for deliveries after this (ISO-8601).")
    Duration timeout;

    @Option(names = "--keep-running", description = "Keep the nodes up after the summary until Ctrl-C, to browse their endpoints.")
    boolean keepRunning;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path workDir = cluster.workDir("demo");
        Path log = workDir.resolve("gateway.log");
        out.printf("Starting %d nodes over %s in %s (log: %s)%n", nodes, cluster.transport.name().toLowerCase(),
                workDir, log);
        out.flush();
        try (EmbeddedCluster running = EmbeddedCluster.start(cluster.transport, nodes, workDir, log)) {
            for (EmbeddedNode node : running.nodes()) {
                out.printf("  node %s: %s over %s  management http://127.0.0.1:%d/actuator, user '%s', "
                        + "password in %s%n",
                        node.id(), node == running.publisher() ? "publishes" : "receives ", node.transportKind(),
                        node.httpPort(), node.managementUser(), node.managementPasswordFile());
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
            boolean complete = watch(running, loading, expected, expectedBad, start);
            load.shutdownNow();
            boolean ok = summarize(out, running, start, expected, expectedBad, complete);
            if (keepRunning) {
                out.println("Nodes keep running; press Ctrl-C to stop.");
                out.flush();
                Thread.currentThread().join();
            }
            return ok ? 0 : GatewayCli.TARGET_MISSED;
        }
    }

    private boolean watch(EmbeddedCluster running, Future<?> loading, long expected, long expectedBad, Instant start)
            throws Exception {
        Instant deadline = start.plus(timeout);
        try (ProgressBar bar = new ProgressBarBuilder().setTaskName("delivered").setInitialMax(expected)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).setMaxRenderedLength(120)
                .showSpeed().continuousUpdate().build()) {
            long lastDelivered = -1;
            int quietPolls = 0;
            while (Instant.now().isBefore(deadline)) {
                long delivered = 0;
                for (EmbeddedNode receiver : running.receivers()) {
                    delivered += InboxProbe.inbox(receiver.database());
                }
                long sent = InboxProbe.sent(running.publisher().database());
                long quarantined = InboxProbe.quarantined(running.publisher().database());
                bar.stepTo(delivered);
                bar.setExtraMessage(String.format("sent %d, quarantined %d, p99 %s", sent, quarantined,
                        p99(running.receivers().getFirst())));
                if (loading.isDone()) {
                    loading.get();
                    quietPolls = delivered == lastDelivered ? quietPolls + 1 : 0;
                    // BEST_EFFORT types may drop over DDS, so done is also: every RELIABLE delivery receipted
                    // and nothing arrived for three seconds.
                    boolean settled = quietPolls >= 12 && InboxProbe.unreceipted(running.publisher().database()) == 0;
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
                Duration.between(start, Instant.now()).withNanos(0));
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
            out.println("  (stopped waiting after " + timeout + ")");
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

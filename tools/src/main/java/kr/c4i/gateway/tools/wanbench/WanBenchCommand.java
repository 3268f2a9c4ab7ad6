package kr.c4i.gateway.tools.wanbench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import ch.qos.logback.classic.Level;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.FileSystemUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.JitWarmUp;
import kr.c4i.gateway.tools.JvmCpu;
import kr.c4i.gateway.tools.MachineCpu;
import kr.c4i.gateway.tools.embedded.KmtfLoadGenerator;
import kr.c4i.gateway.tools.embedded.LoadAverage;
import kr.c4i.gateway.tools.embedded.OptionValues;
import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.frame.KmtfDictionary;
import kr.c4i.gateway.wan.schedule.ScheduleProperties;

/**
 * Measures the WAN relay on this machine: two gateways, each with its own PostgreSQL, joined by a real {@code jms},
 * {@code dds} or {@code norm} link on loopback, and a real JMS or DDS node on each LAN (see {@link RelayPair}). Times
 * run from a message's creation at node a to its arrival in node c's inbox handler: the whole path, nothing
 * subtracted.
 */
@Command(name = "wan-bench", mixinStandardHelpOptions = true, showDefaultValues = true, sortOptions = false,
        header = "Measure the WAN relay: throughput, latency, FLASH under backlog, WAN bytes per message.",
        description = { "Starts two WAN gateways in this JVM (each with its own embedded PostgreSQL, LAN side and "
                + "relay engine), joined by the WAN link of --link on loopback, a node at each site: node a at "
                + "site s1 sends, node c at site s2 receives. With --lan dds (the default) each site's LAN is a "
                + "DDS domain of its own and the nodes are DDS nodes (node a publishes again what gateway 1 has not "
                + "receipted, as a node's outbox does); with --lan jms each site's LAN is Artemis brokers and the "
                + "nodes are JMS nodes. Latency is from creation at node a to arrival in node c's inbox handler.",
                "throughput: --messages messages of --size bytes, unshaped (--unshaped-budget), as fast as node a "
                        + "takes them, bounded by --max-seconds; messages per second from the first send to the "
                        + "last arrival.",
                "latency: on a fresh unshaped pair, after the warm-up and --latency-settle-seconds at the rate, "
                        + "--latency-rate messages per second for --latency-seconds; p50/p99/max.",
                "flash: for each --flash budget, a fresh pair at that WAN budget (bits per second), --backlog "
                        + "bytes of ROUTINE messages stored at gateway 1 first, then --flash-count FLASH messages "
                        + "every --flash-interval while the backlog drains; p50/p99/max of the FLASH latencies, and "
                        + "the ROUTINE backlog still at gateway 1 when the last FLASH arrived.",
                "bytes: --mix-messages messages of the demo's mix (all catalogue types, realistic sizes) through "
                        + "an unshaped pair, compressed (the codec's default, Deflate with the KMTF dictionary) and "
                        + "not: WAN bytes per message, from the gateway.wan.bytes counters." })
public final class WanBenchCommand implements Callable<Integer> {

    /** The measurements, run in this order. */
    enum Phase { THROUGHPUT, LATENCY, FLASH, BYTES }

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final int SEND_BATCH = 500;
    private static final Duration DRAIN = Duration.ofSeconds(120);

    @Spec
    CommandSpec spec;

    @Option(names = "--phases", split = ",", defaultValue = "throughput,latency,flash,bytes",
            description = "Which measurements to run: ${COMPLETION-CANDIDATES}.")
    EnumSet<Phase> phases;

    @Option(names = "--size", defaultValue = "200", converter = OptionValues.PositiveInt.class,
            description = "Body size in bytes of the throughput, latency and flash messages.")
    int size;

    @Option(names = "--unshaped-budget", defaultValue = "1000000000", converter = OptionValues.PositiveLong.class,
            description = "WAN budget in bits per second of the unshaped pair (throughput, latency, bytes).")
    long unshapedBudget;

    @Option(names = "--frame-target", defaultValue = "1200", converter = OptionValues.PositiveInt.class,
            description = "Bytes DATA frames are filled to at least (gateway.wan.frame-target; its default is one "
                    + "datagram of a datagram link); a faster budget fills them with 10 ms of it, up to the link's "
                    + "largest frame (64 KiB for the jms link).")
    int frameTarget;

    @Option(names = "--burst-bytes", defaultValue = "1400", converter = OptionValues.PositiveInt.class,
            description = "How far a sender may run ahead of the budget (gateway.wan.schedule.burst-bytes), at least "
                    + "one frame.")
    int burstBytes;

    @Option(names = "--feed", defaultValue = "site-broker", converter = FeedConverter.class,
            description = "Which broker node a sends through: site-broker (gateway 1's LAN broker, the site's broker) "
                    + "or own-broker (its own, whose bridge forwards to gateway 1's: one broker more).")
    RelayPair.Feed feed;

    @Option(names = "--plain", description = "WAN frames in clear, to measure what sealing costs. By default the "
            + "gateways seal every frame (docs/wan-gateway.md, \"Security\") with identities from two site authorities "
            + "made for the run.")
    boolean plain;

    @Option(names = "--no-custody-log", description = "The gateways without their custody log "
            + "(gateway.custody.enabled=false), to measure what it costs.")
    boolean noCustodyLog;

    @Option(names = "--no-custody-forward", description = "The gateways with their custody log but forwarding no "
            + "steps to the origins' sites (gateway.custody.forward=false); by default gateway 2 forwards its steps "
            + "with node a's messages to gateway 1, as a gateway does.")
    boolean noCustodyForward;

    @Option(names = "--lan", defaultValue = "dds", converter = LanConverter.class,
            description = "The sites' LANs: dds (a DDS domain per site, DDS nodes, no broker) or jms (site brokers, "
                    + "JMS nodes; each message then crosses three brokers, which bound the relay's figures).")
    RelayPair.Lan lan;

    @Option(names = "--link", defaultValue = "dds", converter = LinkConverter.class,
            description = "The WAN link between the gateways: jms (two more brokers on loopback), dds (Cyclone "
                    + "unicast on a WAN domain of its own) or norm (UDP on loopback).")
    RelayPair.LinkKind link;

    @Option(names = "--tx-loss", defaultValue = "0",
            description = "With --link norm: the share of its packets, in percent, each gateway's NORM sender drops "
                    + "(NORM's loss hook; the receivers' NACKs and acknowledgements are not dropped).")
    double txLoss;

    @Option(names = "--window", defaultValue = ScheduleProperties.DEFAULT_WINDOW,
            converter = OptionValues.PositiveDuration.class,
            description = "The gateways' in-flight window as link time at the budget (gateway.wan.schedule.window): "
                    + "what a FLASH message may wait behind inside the link.")
    Duration window;

    @Option(names = "--bytes-budget", defaultValue = "960000", converter = OptionValues.PositiveLong.class,
            description = "WAN budget in bits per second of the bytes phase: up to 960 kbit/s a DATA frame is one "
                    + "--frame-target, as on the narrow links whose bytes matter.")
    long bytesBudget;

    @Option(names = "--warmup", defaultValue = "50000", converter = OptionValues.PositiveInt.class,
            description = "Messages per warm-up round through the unshaped pair before measuring; rounds go on until "
                    + "the JIT compiler took under 5%% of the JVM's CPU in two rounds in a row, at most --warmup-limit "
                    + "(the throughput line says how much compiling was still left).")
    int warmup;

    @Option(names = "--warmup-limit", defaultValue = "5m", converter = OptionValues.PositiveDuration.class,
            description = "How long the warm-up may wait for the JIT compiler to be quiet before measuring anyway "
                    + "(90s, 5m or PT5M).")
    Duration warmupLimit;

    @Option(names = { "-m", "--messages" }, defaultValue = "200000", converter = OptionValues.PositiveInt.class,
            description = "Messages in the throughput phase.")
    int messages;

    @Option(names = "--max-seconds", defaultValue = "60", converter = OptionValues.PositiveInt.class,
            description = "Longest the throughput phase sends.")
    int maxSeconds;

    @Option(names = "--latency-rate", defaultValue = "1000", converter = OptionValues.PositiveInt.class,
            description = "Messages per second in the latency phase.")
    int latencyRate;

    @Option(names = "--latency-seconds", defaultValue = "20", converter = OptionValues.PositiveInt.class,
            description = "Length of the latency phase.")
    int latencySeconds;

    @Option(names = "--latency-settle-seconds", defaultValue = "5", converter = OptionValues.NonNegativeInt.class,
            description = "Seconds at --latency-rate before the latency phase counts: the pair goes from the "
                    + "warm-up's full speed to the rate (the figure line gives their p99 too).")
    int latencySettleSeconds;

    @Option(names = "--flash", split = ",", defaultValue = "256000=1500,128000=2500",
            converter = { OptionValues.PositiveLong.class, OptionValues.PositiveDouble.class },
            description = "WAN budgets of the flash phase, bits per second, each with its FLASH p99 target in ms.")
    Map<Long, Double> flash;

    @Option(names = "--backlog", defaultValue = "10000000", converter = OptionValues.PositiveLong.class,
            description = "Bytes of ROUTINE message bodies loaded before the FLASH messages.")
    long backlog;

    @Option(names = "--flash-count", defaultValue = "20", converter = OptionValues.PositiveInt.class,
            description = "FLASH messages per budget.")
    int flashCount;

    @Option(names = "--flash-interval", defaultValue = "2000", converter = OptionValues.PositiveInt.class,
            description = "Milliseconds between FLASH messages.")
    int flashIntervalMillis;

    @Option(names = "--mix-messages", defaultValue = "5000", converter = OptionValues.PositiveInt.class,
            description = "Messages of the demo's mix in the bytes phase, per compression.")
    int mixMessages;

    @Option(names = "--target-throughput", defaultValue = "20000", converter = OptionValues.PositiveDouble.class,
            description = "Messages per second to reach.")
    double targetThroughput;

    @Option(names = "--target-p99", defaultValue = "20", converter = OptionValues.PositiveDouble.class,
            description = "p99 latency in ms at --latency-rate to stay under.")
    double targetP99;

    @Option(names = "--work-dir", description = "Where the databases and brokers live (default: a new temporary "
            + "directory, deleted afterwards).")
    Path workDir;

    @Option(names = "--keep-data", description = "Keep the work directory afterwards.")
    boolean keepData;

    private final List<String> missed = new ArrayList<>();
    private long serial;

    @Override
    public Integer call() throws Exception {
        // The gateways' expected warnings (a peer not up yet, brokers without dead-letter addresses) would bury the
        // figures; errors still show.
        var root = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        Level level = root.getLevel();
        root.setLevel(Level.ERROR);
        try {
            return measure();
        }
        finally {
            root.setLevel(level);
        }
    }

    private int measure() throws Exception {
        // Combinations of options that cannot go together are usage errors before anything starts.
        feed();
        link();
        PrintWriter out = spec.commandLine().getOut();
        Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("wan-bench");
        out.printf("command: gateway %s%n", String.join(" ", spec.commandLine().getParseResult().originalArgs()));
        out.printf("load average at start: %s (work dir %s)%n", load(), dir);
        // The bench's brokers (JMS LANs, the jms link) run in plain TCP: bench measures what broker TLS costs.
        out.printf("sites: %s LANs, %s link, WAN frames %s%s, %s%n", OptionValues.OneOf.spelling(lan),
                link().label(), plain ? "in clear (--plain)" : "sealed",
                lan == RelayPair.Lan.JMS || link().kind() == RelayPair.LinkKind.JMS ? ", brokers in plain TCP" : "",
                switch (custody()) {
                    case OFF -> "no custody log (--no-custody-log)";
                    case LOGGED -> "custody logs, no steps forwarded (--no-custody-forward)";
                    case LOGGED_AND_FORWARDED -> "custody logs, gateway 2's steps forwarded to gateway 1";
                });
        out.flush();
        try {
            // Each on a pair of its own, so the latency phase never waits behind what the throughput phase left.
            if (phases.contains(Phase.THROUGHPUT)) {
                unshaped(out, dir.resolve("throughput"), Phase.THROUGHPUT);
            }
            if (phases.contains(Phase.LATENCY)) {
                unshaped(out, dir.resolve("latency"), Phase.LATENCY);
            }
            if (phases.contains(Phase.FLASH)) {
                for (Map.Entry<Long, Double> budget : new TreeMap<>(flash).descendingMap().entrySet()) {
                    flash(out, dir.resolve("flash-" + budget.getKey()), budget.getKey(), budget.getValue());
                }
            }
            if (phases.contains(Phase.BYTES)) {
                bytes(out, dir.resolve("bytes-deflate"), KmtfDictionary.DEFLATE);
                bytes(out, dir.resolve("bytes-none"), FrameCompression.NONE);
            }
        }
        finally {
            if (!keepData && workDir == null) {
                FileSystemUtils.deleteRecursively(dir);
            }
        }
        out.printf("load average at end: %s%n", load());
        if (missed.isEmpty()) {
            out.println("every target met");
        }
        else {
            out.printf("targets MISSED: %s%n", String.join("; ", missed));
        }
        out.flush();
        return missed.isEmpty() ? ExitCode.OK.code() : ExitCode.TARGET_MISSED.code();
    }

    private RelayPair.Custody custody() {
        return noCustodyLog ? RelayPair.Custody.OFF
                : noCustodyForward ? RelayPair.Custody.LOGGED : RelayPair.Custody.LOGGED_AND_FORWARDED;
    }

    private void unshaped(PrintWriter out, Path dir, Phase measured) throws Exception {
        Inbox inbox = new Inbox();
        progress(out, "starting the unshaped pair (budget %d bit/s)", unshapedBudget);
        try (RelayPair pair = RelayPair.start(dir, CATALOGUE, new RelayPair.Shape(unshapedBudget,
                KmtfDictionary.DEFLATE, frameTarget, burstBytes, feed(), lan, link(), window, !plain, custody()), inbox)) {
            KmtfLoadGenerator generator = new KmtfLoadGenerator(CATALOGUE, "A", size, true, 7);
            warmUp(out, pair, inbox, generator);
            if (measured == Phase.THROUGHPUT) {
                throughput(out, pair, inbox, generator);
            }
            else {
                latency(out, pair, inbox, generator);
            }
        }
    }

    /**
     * Rounds of {@code --warmup} messages at full speed until the JIT compiler is quiet ({@link JitWarmUp}), at most
     * {@code --warmup-limit}, so the phase measures compiled code, not the compiler; then waits until the pair has
     * settled and has its stores' PostgreSQL checkpoint and vacuum what the warm-up left, so no work left from the
     * warm-up runs during the phase.
     */
    private void warmUp(PrintWriter out, RelayPair pair, Inbox inbox, KmtfLoadGenerator generator) throws Exception {
        new JitWarmUp(warmupLimit).run((round) -> {
            String prefix = "w" + round + "-";
            Inbox.Phase warm = inbox.begin(prefix);
            sendAtFullSpeed(pair, generator, prefix, warmup, Duration.ofSeconds(maxSeconds));
            awaitArrivals(warm, warmup, "warm-up");
            return warm.arrived() + " messages";
        }, (round, what, share, took) -> progress(out, "warm-up round %d: %s, the JIT compiler took %.0f%% of the "
                + "JVM's CPU", round, what, share * 100));
        if (!await(pair::settled, DRAIN)) {
            throw new IllegalStateException("The pair did not settle after the warm-up within " + DRAIN + ": "
                    + pair.stages());
        }
        pair.tidyStores();
    }

    private void throughput(PrintWriter out, RelayPair pair, Inbox inbox, KmtfLoadGenerator generator)
            throws Exception {
        progress(out, "throughput: %d messages of %d bytes as fast as node a takes them (at most %d s)", messages,
                size, maxSeconds);
        Inbox.Phase phase = inbox.begin("t-");
        double framesBefore = pair.dataFramesSent1();
        long cpuBefore = JvmCpu.processNanos();
        long jitBefore = JvmCpu.jitNanos();
        long machineBefore = MachineCpu.busyNanos();
        long start = System.nanoTime();
        long sent = sendAtFullSpeed(pair, generator, "t-", messages, Duration.ofSeconds(maxSeconds));
        long fed = System.nanoTime() - start;
        progress(out, "throughput: sent %d in %.1f s; %s; arrived %d", sent, fed / 1e9, pair.stages(),
                phase.arrived());
        boolean all = awaitArrivals(phase, sent, "throughput");
        long cpu = JvmCpu.processNanos() - cpuBefore;
        long jit = Math.max(0, JvmCpu.jitNanos() - jitBefore);
        long machineAfter = MachineCpu.busyNanos();
        String machine = machineBefore < 0 || machineAfter < 0 ? ""
                : String.format(Locale.ROOT, "; the machine's %.0f us (the stores' PostgreSQL included)",
                        (machineAfter - machineBefore) / 1e3 / Math.max(1, phase.arrived()));
        double seconds = (phase.lastArrivalNanos() - start) / 1e9;
        double rate = phase.arrived() / seconds;
        Histogram latencies = phase.latencies();
        boolean met = all && rate >= targetThroughput;
        figure(out, "relay throughput", String.format(Locale.ROOT,
                "%.0f msg/s (%d of %d messages of %d bytes arrived in %.1f s; node a took them at %.0f msg/s; "
                        + "%.1f messages per DATA frame; latency under this load p50 %.1f ms, p99 %.1f ms; "
                        + "CPU of this JVM %.0f us per message, %.1f s of it JIT compiling%s) -> target >= "
                        + "%.0f msg/s: %s",
                rate, phase.arrived(), sent, size, seconds, sent / (fed / 1e9),
                phase.arrived() / Math.max(1, pair.dataFramesSent1() - framesBefore), millis(latencies, 50),
                millis(latencies, 99), cpu / 1e3 / Math.max(1, phase.arrived()), jit / 1e9, machine,
                targetThroughput,
                verdict(met)));
        if (!met) {
            missed.add(String.format(Locale.ROOT, "throughput %.0f msg/s < %.0f", rate, targetThroughput));
        }
    }

    private void latency(PrintWriter out, RelayPair pair, Inbox inbox, KmtfLoadGenerator generator)
            throws Exception {
        long count = (long) latencyRate * latencySeconds;
        progress(out, "latency: %d msg/s for %d s after %d s at that rate", latencyRate, latencySeconds,
                latencySettleSeconds);
        Inbox.Phase settling = inbox.begin("ls-");
        atRate(pair, generator, "ls-", (long) latencyRate * latencySettleSeconds);
        Histogram settled = settling.latencies();
        Inbox.Phase phase = inbox.begin("l-");
        atRate(pair, generator, "l-", count);
        boolean all = awaitArrivals(phase, count, "latency");
        Histogram latencies = phase.latencies();
        boolean met = all && millis(latencies, 99) < targetP99;
        figure(out, "added latency at " + latencyRate + " msg/s", String.format(Locale.ROOT,
                "p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d of %d messages (the %d s at the rate before: p99 "
                        + "%.1f ms) -> p99 < %.0f ms: %s",
                millis(latencies, 50), millis(latencies, 99), latencies.getMaxValue() / 1000.0, phase.arrived(), count,
                latencySettleSeconds, millis(settled, 99), targetP99, verdict(met)));
        if (!met) {
            missed.add(String.format(Locale.ROOT, "latency p99 %.1f ms >= %.0f", millis(latencies, 99), targetP99));
        }
    }

    /**
     * Sends {@code count} messages at {@code --latency-rate}, each as it falls due (several at once if the sender fell
     * behind), parked in between: the sender takes no CPU from the relay while it waits.
     */
    private void atRate(RelayPair pair, KmtfLoadGenerator generator, String prefix, long count) throws Exception {
        long start = System.nanoTime();
        long sent = 0;
        while (sent < count) {
            long due = Math.min(count, (System.nanoTime() - start) * latencyRate / 1_000_000_000L + 1);
            if (due > sent) {
                List<Outbound> batch = new ArrayList<>();
                for (; sent < due; sent++) {
                    batch.add(outbound(generator.next(), prefix, Precedence.ROUTINE));
                }
                pair.send(batch);
            }
            else {
                LockSupport.parkNanos(start + sent * 1_000_000_000L / latencyRate - System.nanoTime());
            }
        }
    }

    private void flash(PrintWriter out, Path dir, long budget, double targetMillis) throws Exception {
        Inbox inbox = new Inbox();
        progress(out, "starting a pair at a WAN budget of %d bit/s", budget);
        try (RelayPair pair = RelayPair.start(dir, CATALOGUE, new RelayPair.Shape(budget, KmtfDictionary.DEFLATE,
                frameTarget, burstBytes, feed(), lan, link(), window, !plain, custody()), inbox)) {
            KmtfLoadGenerator generator = new KmtfLoadGenerator(CATALOGUE, "A", size, true, 11);
            long routine = (backlog + size - 1) / size;
            progress(out, "flash at %d bit/s over %s: loading %d bytes of ROUTINE (%d messages) into gateway 1",
                    budget, link().label(), backlog, routine);
            inbox.begin("r-");
            double before = pair.storedFromLan1();
            sendAtFullSpeed(pair, generator, "r-", routine, DRAIN);
            if (!await(() -> pair.storedFromLan1() - before >= routine, DRAIN)) {
                throw new IllegalStateException("Gateway 1 stored only " + (long) (pair.storedFromLan1() - before)
                        + " of " + routine + " ROUTINE messages within " + DRAIN.toSeconds() + " s");
            }
            long loadedBytes = pair.routineBacklogBytes();
            progress(out, "flash at %d bit/s: %d FLASH messages every %d ms while %d bytes of ROUTINE wait",
                    budget, flashCount, flashIntervalMillis, loadedBytes);
            Inbox.Phase phase = inbox.begin("f-");
            long start = System.nanoTime();
            for (int i = 0; i < flashCount; i++) {
                long at = start + i * flashIntervalMillis * 1_000_000L;
                long wait = at - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                pair.send(List.of(outbound(generator.next(), "f-", Precedence.FLASH)));
            }
            boolean all = await(() -> phase.flashArrived() >= flashCount, DRAIN);
            long left = pair.routineBacklogBytes();
            progress(out, "flash at %d bit/s: last FLASH arrived; %s; arrived at node c %d", budget, pair.stages(),
                    inbox.arrived());
            Histogram latencies = phase.flashLatencies();
            boolean met = all && left > 0 && millis(latencies, 99) < targetMillis;
            figure(out, "FLASH latency at " + budget + " bit/s", String.format(Locale.ROOT,
                    "p50 %.0f ms, p99 %.0f ms, max %.0f ms over %d of %d FLASH messages; ROUTINE backlog at "
                            + "gateway 1 when the last arrived: %d of %d bytes (%.0f%%) -> p99 < %.0f ms%s: %s",
                    millis(latencies, 50), millis(latencies, 99), latencies.getMaxValue() / 1000.0,
                    phase.flashArrived(), flashCount, left, loadedBytes, 100.0 * left / Math.max(1, loadedBytes),
                    targetMillis, left > 0 ? "" : " (backlog drained first: make --backlog larger)", verdict(met)));
            if (!met) {
                missed.add(String.format(Locale.ROOT, "FLASH p99 at %d bit/s %.0f ms >= %.0f", budget,
                        millis(latencies, 99), targetMillis));
            }
        }
    }

    private void bytes(PrintWriter out, Path dir, FrameCompression compression) throws Exception {
        Inbox inbox = new Inbox();
        progress(out, "bytes: %d messages of the demo's mix, compression %s", mixMessages, compression.name());
        try (RelayPair pair = RelayPair.start(dir, CATALOGUE, new RelayPair.Shape(bytesBudget, compression,
                frameTarget, burstBytes, feed(), lan, link(), window, !plain, custody()), inbox)) {
            // The demo's own mix: every catalogue type, realistic sizes, its seed.
            KmtfLoadGenerator generator = new KmtfLoadGenerator(CATALOGUE, "A", 0, false, 42);
            Inbox.Phase phase = inbox.begin("b-");
            long bodies = 0;
            long sent = 0;
            while (sent < mixMessages) {
                List<Outbound> batch = new ArrayList<>();
                for (int i = 0; i < SEND_BATCH && sent < mixMessages; i++, sent++) {
                    Outbound next = outbound(generator.next(), "b-", Precedence.ROUTINE);
                    bodies += next.envelope().body().length;
                    batch.add(next);
                }
                pair.send(batch);
            }
            awaitArrivals(phase, sent, "bytes");
            // Receipts come after the last arrival; the counters settle once gateway 2 sent them.
            await(() -> pair.backlogCopies() == 0, Duration.ofSeconds(30));
            double data = pair.wanBytesSent1();
            double receipts = pair.wanBytesSent2();
            figure(out, "WAN bytes per message, " + compression.name(), String.format(Locale.ROOT,
                    "%.1f bytes of DATA frames + %.1f of receipts per message (bodies %.1f bytes on average, %.1f "
                            + "messages per frame; %d messages)",
                    data / sent, receipts / sent, (double) bodies / sent, sent / Math.max(1, pair.dataFramesSent1()),
                    sent));
        }
    }

    /** Sends {@code count} messages in batches as fast as node a takes them, for at most {@code limit}. */
    private long sendAtFullSpeed(RelayPair pair, KmtfLoadGenerator generator, String prefix, long count,
            Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        long sent = 0;
        while (sent < count && System.nanoTime() < deadline) {
            List<Outbound> batch = new ArrayList<>(SEND_BATCH);
            for (int i = 0; i < SEND_BATCH && sent < count; i++, sent++) {
                batch.add(outbound(generator.next(), prefix, Precedence.ROUTINE));
            }
            pair.send(batch);
        }
        return sent;
    }

    private Outbound outbound(OutboxMessage message, String prefix, Precedence precedence) {
        Envelope envelope = new Envelope(prefix + (++serial), RelayPair.A, message.kmtfType(), precedence,
                "UNCLASSIFIED", Instant.now(), message.body());
        return new Outbound(envelope, CATALOGUE.require(message.kmtfType()), List.of(RelayPair.C));
    }

    private static boolean awaitArrivals(Inbox.Phase phase, long count, String name) throws InterruptedException {
        return await(() -> phase.arrived() >= count, DRAIN);
    }

    private static boolean await(BooleanSupplier condition, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return true;
    }

    private static double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    private static String verdict(boolean met) {
        return met ? "met" : "MISSED";
    }

    private static String load() {
        return LoadAverage.read().map(LoadAverage::toString).orElse("unknown");
    }

    private static void figure(PrintWriter out, String name, String value) {
        out.printf("%-42s: %s [load %s]%n", name, value, load());
        out.flush();
    }

    private static void progress(PrintWriter out, String format, Object... args) {
        out.printf("  " + format + " ...%n", args);
        out.flush();
    }

    /** Node a's broker; refused with DDS LANs, which have none. */
    private RelayPair.Feed feed() {
        if (lan == RelayPair.Lan.DDS && feed != RelayPair.Feed.SITE_BROKER) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--feed " + OptionValues.OneOf.spelling(feed)
                            + " needs --lan jms: a DDS LAN has no broker");
        }
        return feed;
    }

    private RelayPair.Link link() {
        try {
            return new RelayPair.Link(link, txLoss);
        }
        catch (IllegalArgumentException ex) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    /** Reads {@code --link}: dds, jms, norm. */
    static final class LinkConverter extends OptionValues.OneOf<RelayPair.LinkKind> {

        LinkConverter() {
            super(RelayPair.LinkKind.class);
        }
    }

    /** Reads {@code --lan}: jms, dds. */
    static final class LanConverter extends OptionValues.OneOf<RelayPair.Lan> {

        LanConverter() {
            super(RelayPair.Lan.class);
        }
    }

    /** Reads {@code --feed}: site-broker, own-broker. */
    static final class FeedConverter extends OptionValues.OneOf<RelayPair.Feed> {

        FeedConverter() {
            super(RelayPair.Feed.class);
        }
    }
}

package kr.c4i.gateway.tools.ddsbench;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.WaitSet;
import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.RoundTrip;
import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.Throughput;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.dds.transport.KmtfTypes;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tools.ExitCode;

/**
 * The Cyclone DDS binding against Cyclone's own {@code ddsperf} (Debian {@code cyclonedds-tools}), on loopback, in
 * one run, every figure next to ddsperf's and checked against the project's targets:
 * <ol>
 * <li>270 KMTF topics and writers created (through {@link DdsTransport} and the shipped catalogue) and matched by
 * a peer process's 270 readers: under 1 s;</li>
 * <li>reliable (RELIABLE, KEEP_ALL) throughput of {@code --size}-byte samples between two processes, lossless:
 * at least 50% of ddsperf's ({@code ddsperf pub size N} against {@code ddsperf sub}); the Java publisher batches
 * writes as {@link DdsTransport} does ({@code ParticipantSettings.writeBatch}, Cyclone's {@code Internal/WriteBatch},
 * what ddsperf turns on with {@code dds_write_set_batch}) and flushes every {@code --flush-every} writes and at
 * the end;</li>
 * <li>ping/pong round trip, median: at most 1.5 times ddsperf's ({@code ping size N waitset} against
 * {@code pong waitset}; ddsperf prints half round trips, doubled here); ping and pong flush after each write;</li>
 * <li>resident memory (VmRSS) of every Java node process, each run with the heap of {@code --heap} (default
 * {@value BenchOptions#DEFAULT_HEAP}, as a node is deployed): under 256 MB.</li>
 * </ol>
 * Then, for information: ddsperf's throughput with {@code sub waitset} (ddsperf's default subscriber takes in a
 * listener, on Cyclone's receive thread; the binding and {@code DdsTransport} take on a thread of their own, woken by
 * a wait set), the throughput of the KMTF envelope type, and without write batching.
 *
 * <p>Every process uses one private domain ({@code --domain}) and the same loopback unicast configuration (see
 * {@link BenchOptions#cycloneConfig}); each peer is a child JVM running this class in a child mode, started with the
 * same java binary, JVM options, class path and {@code --enable-native-access=ALL-UNNAMED}. Without heap options
 * in {@code JAVA_OPTS} this JVM first starts itself again with {@code --heap}, so that it (the 270-topic node and the
 * publisher) and every child run with that heap. Every child has a deadline and is
 * killed on exit. Prints a Markdown table; exits 0 when every target is met, 3 when one is missed, 1 when the run
 * fails, 2 on bad arguments ({@link kr.c4i.gateway.tools.ExitCode}).
 */
public final class DdsBindingBenchmark {

    private static final double THROUGHPUT_TARGET = 0.50;
    private static final double RTT_TARGET = 1.5;
    private static final long TOPICS_TARGET_MS = 1000;
    private static final double RSS_TARGET_MB = 256;

    private final BenchOptions options;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Map<String, ProcStatus> javaMemory = new LinkedHashMap<>();
    private final List<String> loads = new ArrayList<>();
    private double ddsperfRssMb = Double.NaN;
    private @Nullable CpuShare phaseStart;
    private String phaseName;

    /** One line of the result table; {@code met} is null for figures without a target. */
    private record Row(String figure, String binding, String ddsperf, String ratio, String target, @Nullable Boolean met) {
    }

    private DdsBindingBenchmark(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) {
        System.exit(BenchOptions.commandLine().execute(args));
    }

    /** The benchmark, or the child role {@code options} name; {@code args} for a relaunch with the heap. */
    static int run(BenchOptions options, List<String> args) throws Exception {
        if (options.mode().equals("run") && !options.heap().isEmpty()
                && !BenchOptions.sizesHeap(ManagementFactory.getRuntimeMXBean().getInputArguments())) {
            // The benchmark JVM is itself a measured node (the 270 topics, the publisher, the ping side).
            return relaunch(options.heap(), args);
        }
        return options.mode().equals("run") ? new DdsBindingBenchmark(options).run() : BenchPeer.run(options);
    }

    private int run() throws Exception {
        String ddsperf = findExecutable(this.options.ddsperf());
        if (ddsperf == null) {
            System.err.println("ddsperf not found (--ddsperf=" + this.options.ddsperf()
                    + "): install it with 'apt-get install -y cyclonedds-tools'");
            return ExitCode.SOFTWARE.code();
        }
        if (this.options.log() != null) {
            Path log = Path.of(this.options.log());
            Files.writeString(log, "dds-bench " + Instant.now() + ": the command and output of every child process\n",
                    StandardCharsets.UTF_8);
            ChildProcess.logTo(log);
        }
        printHeader(ddsperf);

        Set<String> phases = this.options.phases();
        if (phases.contains("topics")) {
            topicsAndMemory();
        }
        @Nullable Throughput ddsperfThroughput = null;
        double javaThroughputRate = Double.NaN;
        if (phases.contains("throughput")) {
            ddsperfThroughput = ddsperfThroughput(ddsperf, null);
            JavaThroughput javaThroughput = javaThroughput("bench", true);
            javaThroughputRate = javaThroughput.rate().rateKs();
            double ratio = javaThroughput.rate().rateKs() / ddsperfThroughput.rateKs();
            this.rows.add(new Row("Reliable throughput, " + this.options.size() + " B, 2 processes, write batching, "
                    + "flush every " + this.options.flushEvery() + " (kS/s)",
                    f1(javaThroughput.rate().rateKs()), f1(ddsperfThroughput.rateKs()), f2(ratio) + "x",
                    ">= " + f2(THROUGHPUT_TARGET) + "x", ratio >= THROUGHPUT_TARGET));
            this.rows.add(new Row("Reliable run lossless (received/written, gaps)",
                    javaThroughput.received() + "/" + javaThroughput.written() + ", " + javaThroughput.gaps(),
                    ddsperfThroughput.received() + " received, " + ddsperfThroughput.lost() + " lost", "",
                    "no loss", javaThroughput.lossless()));
        }
        if (phases.contains("rtt")) {
            RoundTrip ddsperfRtt = ddsperfRoundTrip(ddsperf);
            RoundTrip javaRtt = javaRoundTrip();
            double ratio = javaRtt.p50Us() / ddsperfRtt.p50Us();
            this.rows.add(new Row("Round trip, median (us)", f1(javaRtt.p50Us()), f1(ddsperfRtt.p50Us()),
                    f2(ratio) + "x", "<= " + f2(RTT_TARGET) + "x", ratio <= RTT_TARGET));
            this.rows.add(new Row("Round trip, 99th percentile (us)", f1(javaRtt.p99Us()), f1(ddsperfRtt.p99Us()),
                    f2(javaRtt.p99Us() / ddsperfRtt.p99Us()) + "x", "", null));
            this.rows.add(new Row("Round trips measured", Long.toString(javaRtt.count()),
                    Long.toString(ddsperfRtt.count()), "", "", null));
        }
        if (phases.contains("extra")) {
            double reference = ddsperfThroughput == null ? Double.NaN : ddsperfThroughput.rateKs();
            if (ddsperfThroughput != null) {
                Throughput waitset = ddsperfThroughput(ddsperf, "waitset");
                this.rows.add(new Row("Info: the same against ddsperf 'sub waitset' (takes on a thread of its own, "
                        + "as the binding) (kS/s)", f1(javaThroughputRate), f1(waitset.rateKs()),
                        f2(javaThroughputRate / waitset.rateKs()) + "x", "", null));
            }
            JavaThroughput kmtf = javaThroughput("kmtf", true);
            this.rows.add(new Row("Info: kmtf::KmtfMessage, " + this.options.size() + " B body, write batching "
                    + "(kS/s)", f1(kmtf.rate().rateKs()), f1(reference), f2(kmtf.rate().rateKs() / reference) + "x",
                    kmtf.lossRemark(), null));
            JavaThroughput unbatched = javaThroughput("bench", false);
            this.rows.add(new Row("Info: bench sample without write batching (a datagram per write) (kS/s)",
                    f1(unbatched.rate().rateKs()), f1(reference),
                    f2(unbatched.rate().rateKs() / reference) + "x", unbatched.lossRemark(), null));
        }
        endPhase();
        this.javaMemory.put("benchmark JVM at the end", ProcStatus.self());
        double maxRss = this.javaMemory.values().stream().mapToDouble(ProcStatus::rssMb).max().orElse(Double.NaN);
        double maxHwm = this.javaMemory.values().stream().mapToDouble(ProcStatus::hwmMb).max().orElse(Double.NaN);
        this.rows.add(new Row("Resident memory per node, max VmRSS (MB; peak VmHWM " + f1(maxHwm) + "; heap "
                + heapDescription() + ")",
                f1(maxRss), f1(this.ddsperfRssMb), f1(maxRss / this.ddsperfRssMb) + "x", "< " + f0(RSS_TARGET_MB),
                maxRss < RSS_TARGET_MB));

        printTable();
        boolean allMet = this.rows.stream().allMatch(r -> r.met() == null || r.met());
        System.out.println();
        System.out.println(allMet ? "All targets met." : "Target MISSED: "
                + this.rows.stream().filter(r -> Boolean.FALSE.equals(r.met())).map(Row::figure).toList());
        return allMet ? ExitCode.OK.code() : ExitCode.TARGET_MISSED.code();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // 270 topics and resident memory

    private void topicsAndMemory() throws Exception {
        phase("(d) 270 KMTF topics: peer JVM opens 270 readers, then this JVM creates 270 topics+writers "
                + "(DdsTransport.open) and waits until every writer is matched");
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        try (ChildProcess peer = startJava("readers-peer", "readers", "bench", 120)) {
            String ready = peer.awaitPrefix("READY", Duration.ofSeconds(60));
            long t0 = System.nanoTime();
            DdsTransport node = new DdsTransport(NodeId.of("bench-node"), catalogue, Set.of(),
                    DdsTransportSettings.builder(Duration.ofSeconds(10), 4096)
                            .participant(this.options.participant(true)).build());
            try {
                node.open();
                long created = System.nanoTime() - t0;
                long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
                while (!allMatched(node, catalogue.size())) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("Only " + node.stats().matchedReaders().values().stream()
                                .filter(n -> n >= 1).count() + " of " + catalogue.size()
                                + " writers matched the peer's readers within 30 s");
                    }
                    Thread.sleep(1);
                }
                long matched = System.nanoTime() - t0;
                this.rows.add(new Row(catalogue.size() + " topics+writers created (ms)", f1(created / 1e6), "", "", "",
                        null));
                this.rows.add(new Row("... and all matched by the peer's readers (ms from start)", f1(matched / 1e6),
                        "", "", "< " + TOPICS_TARGET_MS, matched / 1e6 < TOPICS_TARGET_MS));
                this.notes.add("The peer JVM opened its " + catalogue.size() + " topics, writers and readers in "
                        + ready.split(" ")[1] + " ms (cold JVM, library load included).");
                System.out.printf(Locale.ROOT, "    created %d topics+writers in %.1f ms, all matched after %.1f ms%n",
                        catalogue.size(), created / 1e6, matched / 1e6);

                // Load over all topics, so memory is read from nodes that moved traffic.
                if (this.options.load() > 0) {
                    long received = load(node, catalogue, peer);
                    boolean alive = peer.isAlive();
                    this.rows.add(new Row("Load over the " + catalogue.size() + " topics (DdsTransport, peer maxBatch "
                            + this.options.peerMaxBatch() + "): received/sent", received + "/" + this.options.load(),
                            "", "", "peer stays up", alive));
                    if (!alive) {
                        this.notes.add("The receiving peer (DdsTransport, " + catalogue.size() + " readers, one "
                                + "ReceiveLoop) DIED during the load, status " + peer.exitValue() + ": "
                                + peer.tail() + ". Its output is in the log.");
                        System.out.println("    the receiving peer DIED: " + peer.tail());
                    }
                }
                this.javaMemory.put("node with 270 topics+writers after the load", ProcStatus.self());
                if (peer.isAlive()) {
                    this.javaMemory.put("peer with 270 readers after the load", ProcStatus.of(peer.pid()));
                    peer.send("END");
                    peer.awaitPrefix("RESULT", Duration.ofSeconds(15));
                }
            }
            finally {
                node.close();
            }
        }
    }

    private static boolean allMatched(DdsTransport node, int topics) {
        Map<String, Integer> matched = node.stats().matchedReaders();
        return matched.size() == topics && matched.values().stream().allMatch(n -> n >= 1);
    }

    /** Sends {@code --load} messages round-robin over every topic; returns how many the peer received. */
    private long load(DdsTransport node, KmtfCatalogue catalogue, ChildProcess peer) throws Exception {
        byte[] body = BenchSample.payloadFor(this.options.size() + BenchSample.OVERHEAD);
        List<MessageType> types = catalogue.types();
        NodeId origin = NodeId.of("bench-node");
        List<Outbound> batch = new ArrayList<>(types.size());
        long start = System.nanoTime();
        for (int i = 0; i < this.options.load(); i++) {
            MessageType type = types.get(i % types.size());
            batch.add(new Outbound(new Envelope("bench-" + i, origin, type.id(), type.defaultPrecedence(),
                    "UNCLASSIFIED", Instant.now(), body), type, List.of()));
            if (batch.size() == types.size() || i == this.options.load() - 1) {
                try {
                    node.send(batch);
                }
                catch (TransportException ex) {
                    this.notes.add("DdsTransport.send failed after " + i + " messages: " + ex.getMessage());
                    System.out.println("    send failed after " + i + " messages: " + ex.getMessage());
                    break;
                }
                batch.clear();
            }
        }
        double sendSeconds = (System.nanoTime() - start) / 1e9;
        long received = -1;
        long progressAt = System.nanoTime();
        while (received < this.options.load() && System.nanoTime() - progressAt < 3_000_000_000L
                && peer.isAlive()) {
            long now = lastNumber(peer.lines(), "RECEIVED ");
            if (now != received) {
                received = now;
                progressAt = System.nanoTime();
            }
            Thread.sleep(20);
        }
        received = lastNumber(peer.lines(), "RECEIVED ");
        double allSeconds = (System.nanoTime() - start) / 1e9;
        this.notes.add(String.format(Locale.ROOT, "Load over the %d topics through DdsTransport.send (batches of %d, "
                + "%d-byte bodies): %d messages sent in %.2f s (%.1f kS/s), %d received by the peer after %.2f s "
                + "(best-effort catalogue types may drop under load; not a target).", types.size(), types.size(),
                body.length, this.options.load(), sendSeconds, this.options.load() / sendSeconds / 1e3, received,
                allSeconds));
        System.out.printf(Locale.ROOT, "    load: %d messages sent in %.2f s, %d received%n", this.options.load(),
                sendSeconds, received);
        return received;
    }

    private static long lastNumber(List<String> lines, String prefix) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(prefix)) {
                return Long.parseLong(lines.get(i).substring(prefix.length()).strip().split(" ")[0]);
            }
        }
        return 0;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Throughput

    /**
     * @param subMode ddsperf's receive mode, null for its default ({@code listener}: takes in Cyclone's receive
     *        thread); {@code waitset} takes in a thread of its own, as the binding does
     */
    private Throughput ddsperfThroughput(String ddsperf, @Nullable String subMode) throws Exception {
        int d = this.options.duration();
        List<String> subCommand = new ArrayList<>(List.of(ddsperf, "-i", Integer.toString(this.options.domain()),
                "-D", Integer.toString(d + 30), "sub"));
        if (subMode != null) {
            subCommand.add(subMode);
        }
        List<String> pubCommand = List.of(ddsperf, "-i", Integer.toString(this.options.domain()), "-D",
                Integer.toString(d + 1), "-Qminmatch:1", "-Qinitwait:10", "pub", "size",
                Integer.toString(this.options.size()));
        phase("(a) ddsperf reliable throughput: " + String.join(" ", pubCommand) + "  against  "
                + String.join(" ", subCommand));
        List<String> subLines;
        try (ChildProcess sub = start("ddsperf-sub", subCommand)) {
            sub.await(line -> line.contains("(self)"), "its participant", Duration.ofSeconds(10));
            try (ChildProcess pub = start("ddsperf-pub", pubCommand)) {
                waitSampling(pub, sub, Duration.ofSeconds(d + 20L));
            }
            Thread.sleep(1500); // the sub's report of the last second
            sub.terminate();
            subLines = sub.lines();
        }
        Throughput throughput = DdsPerfOutput.steadyThroughput(DdsPerfOutput.subIntervals(subLines));
        if (throughput.intervals() == 0) {
            throw new IllegalStateException("ddsperf sub reported no data: " + String.join(" | ", subLines));
        }
        System.out.printf(Locale.ROOT, "    ddsperf: %.1f kS/s over %d steady seconds, %d received, %d lost%n",
                throughput.rateKs(), throughput.intervals(), throughput.received(), throughput.lost());
        return throughput;
    }

    /** What a Java throughput run measured. */
    private record JavaThroughput(Throughput rate, long written, long received, long gaps, long duplicates,
            double writeKs) {

        boolean lossless() {
            return this.received == this.written && this.gaps == 0 && this.duplicates == 0;
        }

        String lossRemark() {
            return lossless() ? "lossless" : "LOSS: " + (this.written - this.received) + " of " + this.written
                    + " not received, " + this.gaps + " gaps";
        }
    }

    private JavaThroughput javaThroughput(String type, boolean writeBatch) throws Exception {
        boolean kmtf = type.equals("kmtf");
        phase("(b) binding reliable throughput (RELIABLE, KEEP_ALL), " + (kmtf ? "kmtf::KmtfMessage with a "
                + this.options.size() + "-byte body" : "bench::Sample of " + this.options.size() + " bytes")
                + (writeBatch ? ", write batching, flush every " + this.options.flushEvery() + " writes"
                        : ", no write batching")
                + ": this JVM writes, a child JVM takes through a waitset");
        int d = this.options.duration();
        long written;
        double writeSeconds;
        String result;
        List<String> subLines;
        try (ChildProcess sub = startJava("java-sub", "sub", type, d + 90)) {
            sub.awaitPrefix("READY", Duration.ofSeconds(60));
            try (DomainParticipant participant = DomainParticipant.create(this.options.participant(writeBatch))) {
                long[] done = new long[1];
                if (kmtf) {
                    byte[] body = BenchSample.payloadFor(this.options.size() + BenchSample.OVERHEAD);
                    long createdAt = System.currentTimeMillis() * 1_000_000L;
                    Topic<KmtfMessageSample> topic = participant.createTopic(BenchPeer.KMTF_THROUGHPUT_TOPIC,
                            KmtfTypes.MESSAGE);
                    writeSeconds = publish(participant.createWriter(topic, Qos.reliable()), writeBatch, sub, done,
                            seq -> new KmtfMessageSample("bench-node-" + seq, "bench-node", "BENCH",
                                    Precedence.ROUTINE, "UNCLASSIFIED", createdAt, seq, System.nanoTime(), body));
                }
                else {
                    byte[] payload = BenchSample.payloadFor(this.options.size());
                    Topic<BenchSample> topic = participant.createTopic(BenchPeer.THROUGHPUT_TOPIC, BenchSample.TYPE);
                    writeSeconds = publish(participant.createWriter(topic, Qos.reliable()), writeBatch, sub, done,
                            seq -> new BenchSample(seq, System.nanoTime(), payload));
                }
                written = done[0];
                this.javaMemory.put("publisher (this JVM) after " + (kmtf ? "kmtf" : "bench") + " throughput"
                        + (writeBatch ? "" : " without write batching"), ProcStatus.self());
                sub.send("END " + written);
                result = sub.awaitPrefix("RESULT", Duration.ofSeconds(60));
                this.javaMemory.put("subscriber child after " + (kmtf ? "kmtf" : "bench") + " throughput"
                        + (writeBatch ? "" : " without write batching"), ProcStatus.of(sub.pid()));
            }
            subLines = sub.lines();
        }
        Throughput rate = DdsPerfOutput.steadyThroughput(DdsPerfOutput.subIntervals(subLines));
        JavaThroughput measured = new JavaThroughput(rate, written, Long.parseLong(BenchPeer.field(result, "received")),
                Long.parseLong(BenchPeer.field(result, "gaps")), Long.parseLong(BenchPeer.field(result, "duplicates")),
                written / writeSeconds / 1e3);
        System.out.printf(Locale.ROOT, "    binding: %.1f kS/s received over %d steady seconds; wrote %d in %.2f s "
                + "(%.1f kS/s); received %d, gaps %d, duplicates %d -> %s%n", rate.rateKs(), rate.intervals(),
                written, writeSeconds, measured.writeKs(), measured.received(), measured.gaps(),
                measured.duplicates(), measured.lossless() ? "lossless" : "LOSS");
        return measured;
    }

    /**
     * Writes as fast as the writer accepts for {@code --duration} seconds, with write batching flushing every
     * {@code --flush-every} writes and at the end (as {@code DdsTransport.send} flushes before it returns); returns
     * the seconds spent.
     */
    private <T> double publish(DataWriter<T> writer, boolean writeBatch, ChildProcess sub, long[] written,
            LongFunction<T> sample) throws Exception {
        if (!writer.awaitMatched(1, Duration.ofSeconds(30))) {
            throw new IllegalStateException("The subscriber child's reader did not match within 30 s");
        }
        sub.awaitPrefix("MATCHED", Duration.ofSeconds(30));
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(this.options.duration());
        long seq = 0;
        int flushEvery = this.options.flushEvery();
        int unflushed = 0;
        while (System.nanoTime() - end < 0) {
            for (int i = 0; i < 64; i++) {
                writer.write(sample.apply(++seq));
                if (writeBatch && ++unflushed == flushEvery) {
                    writer.flush();
                    unflushed = 0;
                }
            }
        }
        if (writeBatch) {
            writer.flush();
        }
        written[0] = seq;
        return (System.nanoTime() - start) / 1e9;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Round trip

    private RoundTrip ddsperfRoundTrip(String ddsperf) throws Exception {
        int d = this.options.duration();
        int w = this.options.warmup();
        List<String> pongCommand = List.of(ddsperf, "-i", Integer.toString(this.options.domain()), "-D",
                Integer.toString(w + d + 30), "pong", "waitset");
        List<String> pingCommand = List.of(ddsperf, "-i", Integer.toString(this.options.domain()), "-D",
                Integer.toString(1 + w + d), "-Qminmatch:1", "-Qinitwait:10", "ping", "size",
                Integer.toString(this.options.size()), "waitset");
        phase("(c) ddsperf round trip: " + String.join(" ", pingCommand) + "  against  " + String.join(" ", pongCommand)
                + "  (windows after " + (1 + w) + " s kept; half round trips doubled)");
        List<String> pingLines;
        try (ChildProcess pong = start("ddsperf-pong", pongCommand)) {
            pong.await(line -> line.contains("(self)"), "its participant", Duration.ofSeconds(10));
            try (ChildProcess ping = start("ddsperf-ping", pingCommand)) {
                waitSampling(ping, pong, Duration.ofSeconds(w + d + 20L));
                pingLines = ping.lines();
            }
            pong.terminate();
        }
        RoundTrip rtt = DdsPerfOutput.roundTrip(DdsPerfOutput.latencyWindows(pingLines), 1 + w);
        if (rtt.windows() == 0) {
            throw new IllegalStateException("ddsperf ping reported no round trips: " + String.join(" | ", pingLines));
        }
        System.out.printf(Locale.ROOT, "    ddsperf: round trip p50 %.1f us, p99 %.1f us (%d windows, %d round trips)%n",
                rtt.p50Us(), rtt.p99Us(), rtt.windows(), rtt.count());
        return rtt;
    }

    private RoundTrip javaRoundTrip() throws Exception {
        int d = this.options.duration();
        int w = this.options.warmup();
        phase("(c) binding round trip: this JVM pings (write, waitset, take), a child JVM pongs; RELIABLE KEEP_LAST 1, "
                + this.options.size() + "-byte bench::Sample; " + w + " s warm-up, then " + d + " s measured");
        long[] rtts = new long[1 << 16];
        int count = 0;
        long timeouts = 0;
        try (ChildProcess pong = startJava("java-pong", "pong", "bench", w + d + 90)) {
            pong.awaitPrefix("READY", Duration.ofSeconds(60));
            try (DomainParticipant participant = DomainParticipant.create(this.options.participant(true))) {
                Topic<BenchSample> pingTopic = participant.createTopic(BenchPeer.PING_TOPIC, BenchSample.TYPE);
                Topic<BenchSample> pongTopic = participant.createTopic(BenchPeer.PONG_TOPIC, BenchSample.TYPE);
                DataWriter<BenchSample> writer = participant.createWriter(pingTopic, BenchPeer.PING_QOS);
                DataReader<BenchSample> reader = participant.createReader(pongTopic, BenchPeer.PING_QOS);
                WaitSet waitSet = participant.createWaitSet();
                waitSet.attach(reader);
                if (!writer.awaitMatched(1, Duration.ofSeconds(30))) {
                    throw new IllegalStateException("The pong child's reader did not match within 30 s");
                }
                pong.awaitPrefix("MATCHED", Duration.ofSeconds(30));
                long matchDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (reader.status().matchedWriters() < 1) {
                    if (System.nanoTime() - matchDeadline > 0) {
                        throw new IllegalStateException("The pong child's writer did not match within 30 s");
                    }
                    Thread.sleep(2);
                }
                byte[] payload = BenchSample.payloadFor(this.options.size());
                long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(w);
                long end = warmEnd + TimeUnit.SECONDS.toNanos(d);
                long seq = 0;
                while (true) {
                    long now = System.nanoTime();
                    if (now - end >= 0) {
                        break;
                    }
                    boolean measuring = now - warmEnd >= 0;
                    long expected = ++seq;
                    long sent = System.nanoTime();
                    writer.write(new BenchSample(expected, sent, payload));
                    writer.flush(); // write batching, as in DdsTransport: send the ping now
                    boolean back = false;
                    while (!back) {
                        if (waitSet.await(Duration.ofSeconds(1)).isEmpty()) {
                            timeouts++;
                            break;
                        }
                        for (BenchSample sample : reader.take(16)) {
                            back |= sample.seq() == expected;
                        }
                    }
                    long rtt = System.nanoTime() - sent;
                    if (back && measuring) {
                        if (count == rtts.length) {
                            rtts = Arrays.copyOf(rtts, count * 2);
                        }
                        rtts[count++] = rtt;
                    }
                }
                this.javaMemory.put("ping (this JVM) after round trips", ProcStatus.self());
                this.javaMemory.put("pong child after round trips", ProcStatus.of(pong.pid()));
            }
            pong.send("END");
            pong.awaitPrefix("RESULT", Duration.ofSeconds(15));
        }
        Arrays.sort(rtts, 0, count);
        RoundTrip rtt = new RoundTrip(DdsPerfOutput.quantile(rtts, count, 0.50) / 1e3,
                DdsPerfOutput.quantile(rtts, count, 0.99) / 1e3, count, 1);
        if (timeouts > 0) {
            this.notes.add("Binding ping/pong: " + timeouts + " pings got no pong within 1 s.");
        }
        System.out.printf(Locale.ROOT, "    binding: round trip p50 %.1f us, p99 %.1f us (%d round trips, %.1f kRT/s)%n",
                rtt.p50Us(), rtt.p99Us(), count, count / (double) d / 1e3);
        return rtt;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Processes, output

    private ChildProcess start(String name, List<String> command) throws IOException {
        return ChildProcess.start(name, command, Map.of("CYCLONEDDS_URI", BenchOptions.cycloneConfig()),
                this.options.verbose());
    }

    /** A child JVM running this class: same java binary, JVM options and class path. */
    private ChildProcess startJava(String name, String mode, String type, int deadlineSeconds) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-agentlib:") && !a.startsWith("-javaagent:")).toList();
        if (!BenchOptions.sizesHeap(jvm)) {
            command.addAll(this.options.heap());
        }
        command.addAll(jvm);
        if (jvm.stream().noneMatch(a -> a.startsWith("--enable-native-access"))) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DdsBindingBenchmark.class.getName());
        command.addAll(this.options.toArgs(mode, type, deadlineSeconds));
        return ChildProcess.start(name, command, Map.of(), this.options.verbose());
    }

    /** The heap options every Java process of the run has, or the JVM's default sizing. */
    private String heapDescription() {
        List<String> sizing = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> BenchOptions.sizesHeap(List.of(a))).toList();
        if (sizing.isEmpty()) {
            sizing = this.options.heap();
        }
        return sizing.isEmpty() ? "JVM default sizing (max " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB)"
                : String.join(" ", sizing);
    }

    /**
     * Runs the benchmark again in a JVM with {@code heap} and this JVM's options, with this process's standard
     * streams, and returns its exit status; kills it if this JVM is stopped first.
     */
    private static int relaunch(List<String> heap, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(heap);
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(DdsBindingBenchmark.class.getName());
        command.addAll(args);
        Process process = new ProcessBuilder(command).inheritIO().start();
        Thread reaper = new Thread(() -> {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            catch (InterruptedException ex) {
                process.destroyForcibly();
            }
        }, "dds-bench-relaunch-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        int status = process.waitFor();
        Runtime.getRuntime().removeShutdownHook(reaper);
        return status;
    }

    /**
     * Waits for {@code main} to end by itself, reading both ddsperf processes' resident memory every 200 ms (their
     * own {@code rss:} figure would include the JVM that started them).
     */
    private void waitSampling(ChildProcess main, ChildProcess other, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!main.waitFor(Duration.ofMillis(200))) {
            for (ChildProcess child : List.of(main, other)) {
                double rss = child.memory().rssMb();
                if (!Double.isNaN(rss)) {
                    this.ddsperfRssMb = Double.isNaN(this.ddsperfRssMb) ? rss : Math.max(this.ddsperfRssMb, rss);
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(main + " did not end within " + timeout.toSeconds() + " s");
            }
        }
        if (main.exitValue() != 0) {
            this.notes.add(main + " exited with status " + main.exitValue() + ": " + main.tail());
        }
    }

    /** Starts a phase; ends the previous one, noting how much CPU other processes took during it. */
    private void phase(String description) {
        endPhase();
        this.phaseName = description.substring(0, description.indexOf(':') < 0 ? description.length()
                : description.indexOf(':'));
        this.phaseStart = CpuShare.now();
        System.out.println();
        System.out.println("== " + description);
        System.out.println("   load average before: " + loadAverage());
    }

    private void endPhase() {
        if (this.phaseStart == null) {
            return;
        }
        CpuShare end = CpuShare.now();
        String share = String.format(Locale.ROOT, "%s: machine %.0f%% busy, other processes %.0f%%", this.phaseName,
                end.busyPercentSince(this.phaseStart), end.othersPercentSince(this.phaseStart));
        this.loads.add(share);
        System.out.println("   CPU during the phase: " + share.substring(share.indexOf(": ") + 2));
        this.phaseStart = null;
    }

    private void printHeader(String ddsperf) {
        System.out.println("# DDS binding vs Cyclone's ddsperf");
        System.out.println("date:     " + Instant.now().truncatedTo(ChronoUnit.SECONDS));
        System.out.println("machine:  " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + memTotal() + ", Linux " + System.getProperty("os.version"));
        System.out.println("java:     " + System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
                + System.getProperty("java.home") + ")");
        System.out.println("cyclone:  libddsc0debian " + packageVersion("libddsc0debian") + ", ddsperf " + ddsperf
                + " (cyclonedds-tools " + packageVersion("cyclonedds-tools") + ")");
        System.out.println("options:  --duration=" + this.options.duration() + " --warmup=" + this.options.warmup()
                + " --size=" + this.options.size() + " --domain=" + this.options.domain() + " --load="
                + this.options.load() + " --peer-max-batch=" + this.options.peerMaxBatch() + " --flush-every="
                + this.options.flushEvery());
        System.out.println("config:   CYCLONEDDS_URI / vendorConfig = " + BenchOptions.cycloneConfig()
                + "; Java participants add <Internal><WriteBatch>true</WriteBatch></Internal> "
                + "(ParticipantSettings.writeBatch, as DdsTransport) except where noted");
        System.out.println("heap:     " + heapDescription() + " (this JVM and every child JVM)");
        System.out.println("load:     " + loadAverage() + " (1, 5, 15 min); the figures are only comparable on an "
                + "otherwise idle machine");
    }

    private void printTable() {
        System.out.println();
        System.out.println("| Figure | Java binding | ddsperf | ratio | target | result |");
        System.out.println("|---|---:|---:|---:|---|---|");
        for (Row row : this.rows) {
            System.out.println("| " + row.figure() + " | " + row.binding() + " | " + row.ddsperf() + " | "
                    + row.ratio() + " | " + row.target() + " | "
                    + (row.met() == null ? "" : row.met() ? "met" : "MISSED") + " |");
        }
        System.out.println();
        System.out.println("Resident memory of the Java processes (VmRSS / VmHWM, MB):");
        this.javaMemory.forEach((what, status) -> System.out.printf(Locale.ROOT, "  %-75s %7.1f / %7.1f%n", what,
                status.rssMb(), status.hwmMb()));
        System.out.println("ddsperf processes' largest VmRSS: " + f1(this.ddsperfRssMb) + " MB");
        if (this.options.log() != null) {
            System.out.println("Output of every child process: " + this.options.log());
        }
        System.out.println("CPU use during each phase (2 CPUs = 100%; 'other processes' excludes this benchmark and "
                + "its children):");
        this.loads.forEach(share -> System.out.println("  " + share));
        this.notes.forEach(note -> System.out.println("Note: " + note));
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return parts[0] + " " + parts[1] + " " + parts[2];
        }
        catch (IOException ex) {
            return "unknown";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown CPU");
        }
        catch (IOException ex) {
            return "unknown CPU";
        }
    }

    private static String memTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .map(l -> Math.round(Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0) + " GB RAM")
                    .findFirst().orElse("? RAM");
        }
        catch (IOException ex) {
            return "? RAM";
        }
    }

    private static String packageVersion(String name) {
        try {
            Process process = new ProcessBuilder("dpkg-query", "-W", "-f=${Version}", name).redirectErrorStream(true)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "?";
            }
            return process.exitValue() == 0 ? out : "?";
        }
        catch (IOException ex) {
            return "?";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }

    /** The executable's path: as given if it contains a slash, else looked up in PATH; null if not found. */
    static @Nullable String findExecutable(String name) {
        if (name.contains("/")) {
            return Files.isExecutable(Path.of(name)) ? name : null;
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    private static String f0(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    private static String f1(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String f2(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}

package kr.c4i.gateway.dds.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;

/**
 * {@code --key=value} options of {@link DdsBindingBenchmark}; {@link #toArgs} gives them back for a child process.
 *
 * @param mode {@code run} (the benchmark), or a child role: {@code sub}, {@code pong}, {@code readers}
 * @param duration seconds each throughput and latency measurement lasts
 * @param warmup seconds of ping/pong before latencies are recorded
 * @param size serialised sample size in bytes, as ddsperf's {@code size}
 * @param domain the private DDS domain id every participant of the run uses
 * @param ddsperf the ddsperf executable
 * @param load messages sent over the 270 KMTF topics before resident memory is read
 * @param type the child subscriber's type: {@code bench} or {@code kmtf}
 * @param deadline seconds after which a child exits whatever happens
 * @param peerMaxBatch the 270-reader peer's {@link DdsTransportSettings#maxBatch()}
 * @param flushEvery the Java publisher's writes between {@code flush} calls under write batching
 * @param heap the heap options of every benchmark JVM, split at spaces; empty for the JVM's default sizing
 * @param verbose whether to echo the children's output
 * @param phases the measurements to run: {@code topics}, {@code throughput}, {@code rtt}, {@code extra}
 * @param log the file every child's command and output is written to, or null
 */
record BenchOptions(String mode, int duration, int warmup, int size, int domain, String ddsperf, int load,
        String type, int deadline, int peerMaxBatch, int flushEvery, List<String> heap, boolean verbose,
        Set<String> phases, String log) {

    static final List<String> PHASES = List.of("topics", "throughput", "rtt", "extra");

    /** The heap every benchmark JVM runs with unless {@code --heap} or {@code JAVA_OPTS} says otherwise. */
    static final String DEFAULT_HEAP = "-Xms64m -Xmx128m";
    static final int DEFAULT_FLUSH_EVERY = 64;

    static final String USAGE = """
            Usage: bin/dds-bench [--duration=6] [--warmup=2] [--size=200] [--domain=N] [--ddsperf=ddsperf]
                                 [--load=27000] [--peer-max-batch=256] [--flush-every=64]
                                 [--heap="-Xms64m -Xmx128m"] [--phases=...] [--verbose]
              Measures the Cyclone DDS binding against Cyclone's own ddsperf on loopback, in one run:
              reliable throughput, ping/pong round trip, 270 KMTF topics created and matched, resident memory.
              --duration  seconds per throughput and latency measurement (default 6)
              --warmup    seconds of ping/pong before round trips are recorded (default 2)
              --size      serialised sample size in bytes, as ddsperf's 'size' (default 200)
              --domain    private DDS domain id, 0..232 (default 201 + pid % 32)
              --ddsperf   the ddsperf executable (Debian: apt-get install cyclonedds-tools)
              --load      KMTF messages sent over the 270 topics before memory is read (default 27000)
              --peer-max-batch  the 270-reader peer's DdsTransport maxBatch (default 256, the transport's)
              --flush-every  the Java publisher flushes its batching writer after this many writes (default 64)
              --heap      heap options of every Java process of the run, this one included (default
                          "-Xms64m -Xmx128m"; "default" for the JVM's own sizing). Ignored for this JVM and
                          its children when JAVA_OPTS already sets -Xms, -Xmx or a RAM percentage.
              --phases    what to run, comma-separated (default all): topics (270 topics, load, memory),
                          throughput, rtt, extra (ddsperf 'sub waitset'; KMTF envelope type;
                          throughput without write batching)
              --verbose   echo the output of every child process
              --log       write every child's command and output to this file (bin/dds-bench:
                          dds-adapter/target/dds-bench.log)
            Exit status: 0 all targets met, 3 a target missed, 1 the run failed, 2 bad arguments.
            """;

    static BenchOptions parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            if (arg.equals("-h") || arg.equals("--help")) {
                values.put("help", "true");
                continue;
            }
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("Unexpected argument '" + arg + "': options are --key=value");
            }
            int eq = arg.indexOf('=');
            String key = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            String value = eq < 0 ? "true" : arg.substring(eq + 1);
            if (!List.of("mode", "duration", "warmup", "size", "domain", "ddsperf", "load", "type", "deadline",
                    "peer-max-batch", "flush-every", "heap", "phases", "verbose", "log").contains(key)) {
                throw new IllegalArgumentException("Unknown option --" + key);
            }
            values.put(key, value);
        }
        if (values.containsKey("help")) {
            return null;
        }
        int defaultDomain = 201 + (int) (ProcessHandle.current().pid() % 32);
        BenchOptions options = new BenchOptions(values.getOrDefault("mode", "run"),
                integer(values, "duration", 6, 1, 600), integer(values, "warmup", 2, 0, 600),
                integer(values, "size", 200, BenchSample.OVERHEAD, 60_000),
                integer(values, "domain", defaultDomain, 0, ParticipantSettings.MAX_DOMAIN_ID),
                values.getOrDefault("ddsperf", "ddsperf"), integer(values, "load", 27_000, 0, 10_000_000),
                values.getOrDefault("type", "bench"), integer(values, "deadline", 120, 1, 3600),
                integer(values, "peer-max-batch", DdsTransportSettings.DEFAULT_MAX_BATCH, 1, 1_000_000),
                integer(values, "flush-every", DEFAULT_FLUSH_EVERY, 1, 1_000_000),
                heap(values.getOrDefault("heap", DEFAULT_HEAP)),
                Boolean.parseBoolean(values.getOrDefault("verbose", "false")),
                new LinkedHashSet<>(Arrays.asList(values.getOrDefault("phases", String.join(",", PHASES)).split(","))), values.get("log"));
        if (!PHASES.containsAll(options.phases())) {
            throw new IllegalArgumentException("Unknown --phases=" + values.get("phases") + ": choose from " + PHASES);
        }
        if (!List.of("run", "sub", "pong", "readers").contains(options.mode())) {
            throw new IllegalArgumentException("Unknown --mode=" + options.mode());
        }
        if (!List.of("bench", "kmtf").contains(options.type())) {
            throw new IllegalArgumentException("Unknown --type=" + options.type() + ": bench or kmtf");
        }
        return options;
    }

    private static List<String> heap(String value) {
        if (value.isBlank() || value.strip().equals("default")) {
            return List.of();
        }
        List<String> options = Arrays.asList(value.strip().split("\\s+"));
        for (String option : options) {
            if (!option.startsWith("-X") && !option.startsWith("-XX:")) {
                throw new IllegalArgumentException("--heap takes JVM options such as -Xms64m -Xmx128m, was '"
                        + value + "'");
            }
        }
        return List.copyOf(options);
    }

    /** Whether JVM options already size the heap. */
    static boolean sizesHeap(List<String> jvmOptions) {
        return jvmOptions.stream().anyMatch(o -> o.startsWith("-Xmx") || o.startsWith("-Xms")
                || o.startsWith("-XX:MaxRAM") || o.startsWith("-XX:InitialRAM") || o.startsWith("-XX:MinRAM")
                || o.startsWith("-XX:MaxHeapSize") || o.startsWith("-XX:InitialHeapSize"));
    }

    private static int integer(Map<String, String> values, String key, int fallback, int min, int max) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value.strip());
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("--" + key + " must be a whole number, was '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException("--" + key + " must be " + min + ".." + max + ", was " + parsed);
        }
        return parsed;
    }

    /** The arguments for a child in {@code childMode}. */
    List<String> toArgs(String childMode, String childType, int childDeadline) {
        List<String> args = new ArrayList<>();
        args.add("--mode=" + childMode);
        args.add("--size=" + this.size);
        args.add("--domain=" + this.domain);
        args.add("--type=" + childType);
        args.add("--deadline=" + childDeadline);
        args.add("--peer-max-batch=" + this.peerMaxBatch);
        args.add("--flush-every=" + this.flushEvery);
        return args;
    }

    /**
     * Cyclone's configuration for every participant of the run, ddsperf and Java alike: loopback only, unicast
     * discovery to 127.0.0.1 (this host's {@code lo} has no multicast), as the adapter's tests configure it.
     */
    static String cycloneConfig() {
        return "<CycloneDDS><Domain id=\"any\"><General><Interfaces><NetworkInterface address=\"127.0.0.1\"/>"
                + "</Interfaces><AllowMulticast>false</AllowMulticast></General><Discovery>"
                + "<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>31</MaxAutoParticipantIndex>"
                + "<Peers><Peer address=\"127.0.0.1\"/></Peers></Discovery></Domain></CycloneDDS>";
    }

    /**
     * A Java participant of the run.
     *
     * @param writeBatch {@link ParticipantSettings#writeBatch()}: Cyclone's {@code Internal/WriteBatch}, as
     *        {@code DdsTransport} sets it (ddsperf turns the same on with {@code dds_write_set_batch(true)}); its
     *        writers must be flushed
     */
    ParticipantSettings participant(boolean writeBatch) {
        return ParticipantSettings.builder().domainId(this.domain).vendorConfig(cycloneConfig())
                .writeBatch(writeBatch).build();
    }
}

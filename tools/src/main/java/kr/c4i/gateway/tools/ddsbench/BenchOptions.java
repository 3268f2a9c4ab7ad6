package kr.c4i.gateway.tools.ddsbench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.MissingLibrary;
import kr.c4i.gateway.tools.UsageError;
import kr.c4i.gateway.tools.embedded.OptionValues.DdsDomain;
import kr.c4i.gateway.tools.embedded.OptionValues.IntIn;

/**
 * The command line of {@link DdsBindingBenchmark}, {@code --key=value} options (the last of a repeated option wins,
 * so {@code bin/dds-bench}'s {@code --log} can be overridden); {@link #toArgs} gives them back for a child process,
 * whose role is the hidden {@code --mode}.
 */
@Command(name = "dds-bench", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 120,
        version = "dds-bench 0.1.0",
        description = "Measures the Cyclone DDS binding against Cyclone's own ddsperf on loopback, in one run: "
                + "reliable throughput, ping/pong round trip, 270 KMTF topics created and matched, resident memory.")
final class BenchOptions implements Callable<Integer> {

    static final List<String> PHASES = List.of("topics", "throughput", "rtt", "extra");

    /** The heap every benchmark JVM runs with unless {@code --heap} or {@code JAVA_OPTS} says otherwise. */
    static final String DEFAULT_HEAP = "-Xms64m -Xmx128m";
    static final int DEFAULT_FLUSH_EVERY = 64;

    @Spec
    @Nullable CommandSpec spec;

    @Option(names = "--mode", hidden = true, defaultValue = "run", converter = Mode.class,
            description = "run (the benchmark), or a child role: sub, pong, readers")
    String mode = "run";

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "6", converter = MeasureSeconds.class,
            description = "Seconds per throughput and latency measurement (default ${DEFAULT-VALUE}).")
    int duration;

    @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "2", converter = Warmup.class,
            description = "Seconds of ping/pong before round trips are recorded (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "200", converter = Size.class,
            description = "Serialised sample size in bytes, as ddsperf's 'size' (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--domain", paramLabel = "ID", converter = DdsDomain.class,
            description = "Private DDS domain id, 0..232 (default 201 + pid %% 32).")
    int domain = 201 + (int) (ProcessHandle.current().pid() % 32);

    @Option(names = "--ddsperf", paramLabel = "PATH", defaultValue = "ddsperf",
            description = "The ddsperf executable (Debian: apt-get install cyclonedds-tools).")
    String ddsperf = "ddsperf";

    @Option(names = "--load", paramLabel = "N", defaultValue = "27000", converter = Load.class,
            description = "KMTF messages sent over the 270 topics before memory is read (default ${DEFAULT-VALUE}).")
    int load;

    @Option(names = "--type", hidden = true, defaultValue = "bench", converter = SampleType.class,
            description = "The child subscriber's type: bench or kmtf")
    String type = "bench";

    @Option(names = "--deadline", hidden = true, defaultValue = "120", converter = Deadline.class,
            description = "Seconds after which a child exits whatever happens")
    int deadline;

    @Option(names = "--peer-max-batch", paramLabel = "N", converter = Batch.class,
            description = "The 270-reader peer's DdsTransport maxBatch (default ${DEFAULT-VALUE}, the transport's).")
    int peerMaxBatch = DdsTransportSettings.DEFAULT_MAX_BATCH;

    @Option(names = "--flush-every", paramLabel = "N", converter = Batch.class,
            description = "The Java publisher flushes its batching writer after this many writes (default "
                    + "${DEFAULT-VALUE}).")
    int flushEvery = DEFAULT_FLUSH_EVERY;

    @Option(names = "--heap", paramLabel = "OPTIONS", defaultValue = DEFAULT_HEAP, converter = Heap.class,
            description = { "Heap options of every Java process of the run, this one included (default \"${DEFAULT-VALUE}\"; "
                    + "\"default\" for the JVM's own sizing). Ignored for this JVM and its children when JAVA_OPTS "
                    + "already sets -Xms, -Xmx or a RAM percentage." })
    String heap = DEFAULT_HEAP;

    @Option(names = "--phases", paramLabel = "PHASE", split = ",", converter = Phase.class,
            description = "What to run, comma-separated (default all): topics (270 topics, load, memory), "
                    + "throughput, rtt, extra (ddsperf 'sub waitset'; KMTF envelope type; throughput without write "
                    + "batching).")
    List<String> phases = PHASES;

    @Option(names = "--verbose", arity = "0..1", description = "Echo the output of every child process.")
    boolean verbose;

    @Option(names = "--log", paramLabel = "FILE", description = "Write every child's command and output to this file (bin/dds-bench: "
            + "tools/target/dds-bench.log); empty for none.")
    @Nullable String log;

    /** The command line: a usage error in one line, a repeated option's last value, the exit codes in the help. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new BenchOptions()).setOverwrittenOptionsAllowed(true)
                .setParameterExceptionHandler(new UsageError())
                .setExecutionExceptionHandler((ex, command, parseResult) -> {
                    if (MissingLibrary.in(ex).isPresent()) {
                        return new MissingLibrary().handleExecutionException(ex, command, parseResult);
                    }
                    System.out.flush();
                    System.err.println("dds-bench failed: " + ex);
                    ex.printStackTrace();
                    return ExitCode.SOFTWARE.code();
                });
        ExitCode.listIn(cli, ExitCode.OK, ExitCode.SOFTWARE, ExitCode.USAGE, ExitCode.TARGET_MISSED,
                ExitCode.ENVIRONMENT_UNSUPPORTED);
        return cli;
    }

    @Override
    public Integer call() throws Exception {
        List<String> args = spec == null ? List.of() : spec.commandLine().getParseResult().originalArgs();
        try {
            return DdsBindingBenchmark.run(this, args);
        }
        finally {
            System.out.flush();
        }
    }

    /** {@code run} (the benchmark), or a child role: {@code sub}, {@code pong}, {@code readers}. */
    String mode() {
        return this.mode;
    }

    /** Seconds each throughput and latency measurement lasts. */
    int duration() {
        return this.duration;
    }

    /** Seconds of ping/pong before latencies are recorded. */
    int warmup() {
        return this.warmup;
    }

    /** Serialised sample size in bytes, as ddsperf's {@code size}. */
    int size() {
        return this.size;
    }

    /** The private DDS domain id every participant of the run uses. */
    int domain() {
        return this.domain;
    }

    /** The ddsperf executable. */
    String ddsperf() {
        return this.ddsperf;
    }

    /** Messages sent over the 270 KMTF topics before resident memory is read. */
    int load() {
        return this.load;
    }

    /** The child subscriber's type: {@code bench} or {@code kmtf}. */
    String type() {
        return this.type;
    }

    /** Seconds after which a child exits whatever happens. */
    int deadline() {
        return this.deadline;
    }

    /** The 270-reader peer's {@link DdsTransportSettings#maxBatch()}. */
    int peerMaxBatch() {
        return this.peerMaxBatch;
    }

    /** The Java publisher's writes between {@code flush} calls under write batching. */
    int flushEvery() {
        return this.flushEvery;
    }

    /** The heap options of every benchmark JVM, split at spaces; empty for the JVM's default sizing. */
    List<String> heap() {
        String value = this.heap.strip();
        return value.isEmpty() || value.equals("default") ? List.of() : List.of(value.split("\\s+"));
    }

    /** Whether to echo the children's output. */
    boolean verbose() {
        return this.verbose;
    }

    /** The measurements to run: {@code topics}, {@code throughput}, {@code rtt}, {@code extra}. */
    Set<String> phases() {
        return new LinkedHashSet<>(this.phases);
    }

    /** The file every child's command and output is written to, or null. */
    @Nullable String log() {
        return this.log == null || this.log.isBlank() ? null : this.log;
    }

    static final class MeasureSeconds extends IntIn {
        MeasureSeconds() {
            super(1, 600);
        }
    }

    static final class Warmup extends IntIn {
        Warmup() {
            super(0, 600);
        }
    }

    static final class Size extends IntIn {
        Size() {
            super(BenchSample.OVERHEAD, 60_000);
        }
    }

    static final class Load extends IntIn {
        Load() {
            super(0, 10_000_000);
        }
    }

    static final class Deadline extends IntIn {
        Deadline() {
            super(1, 3600);
        }
    }

    static final class Batch extends IntIn {
        Batch() {
            super(1, 1_000_000);
        }
    }

    /** One of {@code choices}, as written. */
    private static String oneOf(String text, List<String> choices, String what) {
        if (!choices.contains(text)) {
            throw new TypeConversionException("'" + text + "' is not " + what + ": choose from "
                    + String.join(", ", choices));
        }
        return text;
    }

    static final class Mode implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return oneOf(text, List.of("run", "sub", "pong", "readers"), "a mode");
        }
    }

    static final class SampleType implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return oneOf(text, List.of("bench", "kmtf"), "a sample type");
        }
    }

    static final class Phase implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return oneOf(text, PHASES, "a phase");
        }
    }

    /** JVM options such as {@code -Xms64m -Xmx128m}, or {@code default}. */
    static final class Heap implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            String value = text.strip();
            if (!value.isEmpty() && !value.equals("default")) {
                for (String option : value.split("\\s+")) {
                    if (!option.startsWith("-X")) {
                        throw new TypeConversionException("'" + text + "' is not a list of JVM options such as "
                                + "-Xms64m -Xmx128m, nor 'default'");
                    }
                }
            }
            return value;
        }
    }

    /** Whether JVM options already size the heap. */
    static boolean sizesHeap(List<String> jvmOptions) {
        return jvmOptions.stream().anyMatch(o -> o.startsWith("-Xmx") || o.startsWith("-Xms")
                || o.startsWith("-XX:MaxRAM") || o.startsWith("-XX:InitialRAM") || o.startsWith("-XX:MinRAM")
                || o.startsWith("-XX:MaxHeapSize") || o.startsWith("-XX:InitialHeapSize"));
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

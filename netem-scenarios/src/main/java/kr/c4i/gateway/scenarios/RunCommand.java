package kr.c4i.gateway.scenarios;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Progress;
import kr.c4i.gateway.scenarios.experiment.RecoveryOrder;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.ScenarioRunner;
import kr.c4i.gateway.scenarios.experiment.WanPlan;
import kr.c4i.gateway.scenarios.experiment.WanVariant;
import kr.c4i.gateway.scenarios.net.ImpairmentBackend;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.net.Shell;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.scenarios.report.ResultFiles;
import kr.c4i.gateway.scenarios.report.Targets;
import kr.c4i.gateway.tools.embedded.OptionValues.DdsDomain;
import kr.c4i.gateway.tools.embedded.OptionValues.IntIn;
import kr.c4i.gateway.tools.embedded.OptionValues.PositiveInt;
import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios run}: the whole set, or a part of it, with a results folder per run. */
@Command(name = "run", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run the experiments for the chosen transports and write the results folder.",
        description = { "Builds the emulated network, runs each experiment for each transport (JMS and DDS in the same "
                + "run), tears everything down (also on failure and Ctrl-C) and writes report.md, results.json, "
                + "repetitions.csv and the charts (PNG, SVG) into the output folder. Needs root.", "" })
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Mixin
    HostTuningOptions hostTuning;

    @Option(names = "--experiments", split = ",", paramLabel = "EXPERIMENT",
            description = "Experiments to run: recovery, fanout, loss, wan (default: all).")
    List<String> experiments = new ArrayList<>(List.of("recovery", "fanout", "loss", "wan"));

    @Option(names = "--wan-links", split = ",", paramLabel = "LINK",
            description = "WAN links of the wan experiment: jms, dds, norm (default: all three; quick: jms and norm).")
    @Nullable List<String> wanLinks;

    @Option(names = "--wan-messages", converter = Messages.class,
            description = "ROUTINE messages per wan cell at least (default 1000, quick 200).")
    @Nullable Integer wanMessages;

    @Option(names = "--wan-cell-seconds", paramLabel = "SECONDS",
            description = "Seconds of its payload bound each wan cell carries at least, in more messages than "
                    + "--wan-messages where the link is fast, so that a cell outlasts a slow hop's round trips "
                    + "(default 10, quick 0; 0: --wan-messages in every cell).")
    @Nullable Integer wanCellSeconds;

    @Option(names = "--wan-cells", split = ",", paramLabel = "LOSS@RATE",
            description = "Loss cells of the WAN link, e.g. 10%%@128kbit (default: the study's six; quick: 10%%@2mbit).")
    @Nullable List<String> wanCells;

    @Option(names = "--wan-delay", split = ",", paramLabel = "DELAY",
            description = "One-way delays added on the WAN link, e.g. 250ms, or 0,250ms to run every wan cell without "
                    + "and with it (default: 0, none). Needs iptables and libnetfilter-queue1.")
    @Nullable List<String> wanDelays;

    @Option(names = "--wan-variants", split = ",", paramLabel = "VARIANT",
            description = "Bodies and compression of the wan cells, each cell run once per variant: filler (today's "
                    + "bodies, one filler text), mix (varied report texts), uncompressed (the mix, the gateways' frame "
                    + "compression off), or all for the three in one run (default: filler). The report gives each its "
                    + "rows and the compression ratio of its bodies.")
    @Nullable List<String> wanVariants;

    @Option(names = { "-t", "--transports" }, split = ",", paramLabel = "TRANSPORT",
            description = "Transports to run: jms, dds (default: both).")
    List<String> transports = new ArrayList<>(List.of("jms", "dds"));

    @Option(names = "--quick", description = "The CI set: 1 repetition, 200 messages per 1:N and loss repetition, "
            + "loss cells 10%% x 2 Mbit/s and 30%% x 256 kbit/s; wan: the jms and norm links, 10%% x 2 Mbit/s and a 10 s "
            + "outage. Later options override it.")
    boolean quick;

    @Option(names = { "-r", "--repetitions" }, converter = Repetitions.class,
            description = "Repetitions per cell (default: 15, quick: 1).")
    @Nullable Integer repetitions;

    @Option(names = "--recovery-messages", converter = Messages.class,
            description = "Messages of the recovery experiment (default 200).")
    @Nullable Integer recoveryMessages;

    @Option(names = "--fanout-messages", converter = Messages.class,
            description = "Messages per 1:N repetition (default 1000, quick 200).")
    @Nullable Integer fanOutMessages;

    @Option(names = "--loss-messages", converter = Messages.class,
            description = "Messages per loss repetition (default 1000, quick 200).")
    @Nullable Integer lossMessages;

    @Option(names = "--subscribers", split = ",", paramLabel = "N", converter = Subscribers.class,
            description = "The N of 1:N, 1 to 5 (default 1,3,5).")
    @Nullable List<Integer> subscribers;

    @Option(names = "--loss-cells", split = ",", paramLabel = "LOSS@RATE",
            description = "Loss cells, e.g. 10%%@128kbit,30%%@2mbit (default: the study's six; quick: two).")
    @Nullable List<String> lossCells;

    @Option(names = "--queue-packets", defaultValue = "50", converter = PositiveInt.class,
            description = "Full-size frames each shaper queues before it drops (reported).")
    int queuePackets;

    @Option(names = "--recovery-order", defaultValue = "restart-then-lift",
            converter = RecoveryOrderName.class,
            description = "restart-then-lift: the stopped node restarts behind the cut, t0 = the lift; "
                    + "lift-then-restart: t0 = its READY line.")
    String recoveryOrder;

    @Option(names = "--cell-timeout", converter = PositiveInt.class,
            description = "Deadline of one loss repetition in seconds (default: 6x the cell's nominal time, "
                    + "60-600 s).")
    @Nullable Integer cellTimeout;

    @Option(names = "--node-start-timeout", defaultValue = "240", converter = PositiveInt.class,
            description = "Seconds all nodes of a deployment may take to report READY.")
    int nodeStartTimeout;

    @Option(names = "--backend", description = "Impairment backend: NETEM or TBF_NFTABLES (default: netem if the "
            + "kernel has it).")
    @Nullable ImpairmentBackend backend;

    @Option(names = { "-o", "--output" }, description = "Results folder (default: scenario-results/<time>).")
    @Nullable Path outputDir;

    @Option(names = "--node-jar", description = "gateway-tools' executable jar (default: found from the working "
            + "directory, or the scenarios.node.jar property).")
    @Nullable Path nodeJar;

    @Option(names = "--java", description = "Java 25 for the nodes (default: the one running this).")
    @Nullable Path javaLauncher;

    @Option(names = "--node-heap", defaultValue = "384m", description = "-Xmx of every node.")
    String nodeHeap;

    @Option(names = "--jms-retry-interval", defaultValue = "1s",
            description = "gateway.jms.bridge-max-retry-interval: how soon a JMS node finds a recovered peer.")
    String jmsRetryInterval;

    @Option(names = "--dds-domain", defaultValue = "0", converter = DdsDomain.class,
            description = "DDS domain of the nodes (0 to 232).")
    int ddsDomain;

    @Option(names = "--multicast-address", defaultValue = "239.255.0.1", description = "DDS multicast group.")
    String multicastAddress;

    @Option(names = "--node-property", paramLabel = "KEY=VALUE",
            description = "A bridge property for every node (repeatable), e.g. gateway.outbox.batch-size=100.")
    Map<String, String> nodeProperties = new LinkedHashMap<>();

    @Option(names = "--gateway-property", paramLabel = "KEY=VALUE",
            description = "A property for every WAN gateway of the wan experiment (repeatable), e.g. "
                    + "gateway.wan.norm.auto-parity=2.")
    Map<String, String> gatewayProperties = new LinkedHashMap<>();

    @Option(names = "--plain", description = "Run nodes and gateways without security (brokers in plain TCP, DDS "
            + "without DDS Security, WAN frames in clear), to measure what it costs. By default each run makes its "
            + "own site PKI in its work directory.")
    boolean plain;

    @Option(names = "--prefix", defaultValue = "c4g-", description = "Start of every namespace and nftables name.")
    String prefix;

    @Option(names = "--subnet", defaultValue = "10.77.0", description = "The hosts' private /24 (first three octets).")
    String subnet;

    @Option(names = "--publish", description = "Also write the report to this Markdown file (e.g. docs/results.md).")
    @Nullable Path publish;

    @Option(names = "--publish-figures", description = "With --publish: copy the charts here and link them from it.")
    @Nullable Path publishFigures;

    @Option(names = "--no-progress", description = "No progress bar (by default a bar on a terminal, a line per step "
            + "elsewhere).")
    boolean noProgress;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunPlan plan = plan();
        EnvironmentUnsupportedException.requireSupported();
        Path dir = outputDir != null ? outputDir
                : Path.of("scenario-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir.resolve("nodes"));
        Path runLog = dir.resolve("run.log");
        // A reused folder starts over: only the files a run writes are removed.
        Files.deleteIfExists(runLog);
        try (var consoles = Files.newDirectoryStream(dir.resolve("nodes"), "*.log")) {
            for (Path console : consoles) {
                Files.delete(console);
            }
        }
        Consumer<String> log = line -> {
            String stamped = Instant.now() + " " + line;
            try {
                Files.writeString(runLog, stamped + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            catch (IOException ex) {
                // the run matters more than its log
            }
            if (output.verbose()) {
                err.println(stamped);
                err.flush();
            }
        };
        NodeSettings nodes = new NodeSettings(javaPath(), nodeJarPath(), nodeHeap, jmsRetryInterval, ddsDomain,
                multicastAddress, nodeProperties, gatewayProperties);
        Path workRoot = Files.createTempDirectory("c4g-scenarios-");
        ScenarioRunner.Options options = new ScenarioRunner.Options(new Topology(prefix, subnet, 6), backend,
                hostTuning.tuning(), nodes, workRoot, dir.resolve("nodes"), !plain);
        String command = "bin/scenarios " + String.join(" ",
                spec.root().commandLine().getParseResult().originalArgs());
        out.println("Results folder: " + dir.toAbsolutePath());
        out.flush();
        RunResult result;
        try (Progress bar = progress(plan)) {
            result = new ScenarioRunner(plan, options, bar, log, new Shell(line -> log.accept("$ " + line)), command)
                    .onCheckpoint(partial -> saveCheckpoint(partial, dir, log)).run();
        }
        String report = ResultFiles.writeAll(result, dir);
        if (publish != null) {
            Publisher.publish(report, dir, publish, publishFigures);
        }
        List<Targets.Check> checks = Targets.evaluate(result);
        for (Targets.Check check : checks) {
            out.printf("%-12s %s: %s%n", check.status(), check.description(), check.measured());
        }
        result.problems().forEach(p -> err.println("PROBLEM " + p));
        out.println("Report: " + dir.resolve(ResultFiles.REPORT).toAbsolutePath());
        out.flush();
        if (!result.problems().isEmpty()) {
            return ExitCode.INCOMPLETE.code();
        }
        return Targets.anyMissed(checks) ? ExitCode.TARGET_MISSED.code() : ExitCode.OK.code();
    }

    /** The plan the options describe; invalid values fail with a usage error before anything is built. */
    RunPlan plan() {
        try {
            List<ExperimentKind> kinds = experiments.stream().map(ExperimentKind::parse).distinct().toList();
            List<TransportKind> chosen = transports.stream().map(TransportKind::parse).distinct().toList();
            RunPlan base = quick ? RunPlan.quick(kinds, chosen) : RunPlan.full(kinds, chosen);
            return new RunPlan(base.experiments(), base.transports(),
                    repetitions != null ? repetitions : base.repetitions(), base.quick(),
                    recoveryMessages != null ? recoveryMessages : base.recoveryMessages(), base.recoverySize(),
                    fanOutMessages != null ? fanOutMessages : base.fanOutMessages(), base.fanOutSize(),
                    subscribers != null ? subscribers : base.subscribers(),
                    lossMessages != null ? lossMessages : base.lossMessages(), base.lossSize(),
                    lossCells != null ? lossCells.stream().map(RunCommand::lossCell).toList() : base.lossCells(),
                    queuePackets, RecoveryOrder.valueOf(recoveryOrder.toUpperCase().replace('-', '_')),
                    Duration.ofSeconds(nodeStartTimeout), base.deliveryTimeout(),
                    cellTimeout != null ? Duration.ofSeconds(cellTimeout) : null, base.warmupMessages(), wanPlan(base));
        }
        catch (IllegalArgumentException ex) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
    }

    private WanPlan wanPlan(RunPlan base) {
        WanPlan wan = base.wan();
        if (wanLinks != null) {
            wan = wan.withLinks(wanLinks.stream().map(WanLinkKind::parse).distinct().toList());
        }
        if (wanDelays != null) {
            wan = wan.withDelays(wanDelays.stream().map(RunCommand::delay).toList());
        }
        if (wanVariants != null) {
            wan = wan.withVariants(wanVariants.stream().flatMap(v -> WanVariant.parse(v).stream()).toList());
        }
        if (wanCellSeconds != null) {
            wan = wan.withCellSeconds(wanCellSeconds);
        }
        return wan.withLoad(wanCells != null ? wanCells.stream().map(RunCommand::lossCell).toList() : wan.cells(),
                wanMessages != null ? wanMessages : wan.messages());
    }

    /** {@code 250ms}, {@code 1s} or {@code 0}. */
    static Duration delay(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,6})\\s*(ms|s)?").matcher(text.strip()
                .toLowerCase(Locale.ROOT));
        if (!m.matches() || m.group(2) == null && !m.group(1).equals("0")) {
            throw new IllegalArgumentException("'" + text + "' is not a WAN delay; write e.g. 250ms, 1s or 0");
        }
        long amount = Long.parseLong(m.group(1));
        return "s".equals(m.group(2)) ? Duration.ofSeconds(amount) : Duration.ofMillis(amount);
    }

    /** {@code 10%@128kbit}. */
    static LossCell lossCell(String text) {
        String[] parts = text.split("@");
        if (parts.length != 2 || !parts[0].strip().endsWith("%")) {
            throw new IllegalArgumentException("'" + text + "' is not a loss cell; write e.g. 10%@128kbit");
        }
        String percent = parts[0].strip();
        try {
            return new LossCell(Double.parseDouble(percent.substring(0, percent.length() - 1)) / 100,
                    Rate.parse(parts[1]));
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("'" + text + "' is not a loss cell (" + ex.getMessage()
                    + "); write e.g. 10%@128kbit", ex);
        }
    }

    /** The run so far as results.json, which the end of the run overwrites; 'scenarios report' renders it. */
    private static void saveCheckpoint(RunResult partial, Path dir, Consumer<String> log) {
        try {
            Path temporary = dir.resolve(ResultFiles.JSON + ".part");
            Files.writeString(temporary, ResultFiles.toJson(partial), StandardCharsets.UTF_8);
            Files.move(temporary, dir.resolve(ResultFiles.JSON), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            log.accept("Saved the run so far (" + partial.repetitions().size() + " repetitions) to " + ResultFiles.JSON);
        }
        catch (IOException ex) {
            log.accept("Unable to save the run so far: " + ex);
        }
    }

    private Progress progress(RunPlan plan) {
        if (noProgress) {
            return Progress.none();
        }
        if (System.console() != null && !output.verbose()) {
            return Progress.bar(plan.steps(), System.err);
        }
        return Progress.lines(plan.steps(), spec.commandLine().getErr());
    }

    private Path javaPath() {
        if (javaLauncher != null) {
            return javaLauncher;
        }
        String configured = System.getProperty("scenarios.java");
        if (configured != null) {
            return Path.of(configured);
        }
        return ProcessHandle.current().info().command().map(Path::of)
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    private Path nodeJarPath() throws IOException {
        Path jar = nodeJar;
        if (jar == null && System.getProperty("scenarios.node.jar") != null) {
            jar = Path.of(System.getProperty("scenarios.node.jar"));
        }
        if (jar == null) {
            jar = NodeJar.find(Path.of("").toAbsolutePath());
        }
        if (jar == null || !Files.isRegularFile(jar)) {
            throw new IllegalStateException("The node jar (gateway-tools' executable jar) was not found"
                    + (jar == null ? "" : " at " + jar) + ": build it with 'mvn -pl tools -am package -DskipTests' "
                    + "or give --node-jar");
        }
        return jar.toAbsolutePath();
    }

    static final class Repetitions extends IntIn {
        Repetitions() {
            super(1, 1000);
        }
    }

    static final class Messages extends IntIn {
        Messages() {
            super(1, 1_000_000);
        }
    }

    /** The N of 1:N: host 1 publishes, hosts 2 to N+1 of the six subscribe. */
    static final class Subscribers extends IntIn {
        Subscribers() {
            super(1, 5);
        }
    }

    /** {@code restart-then-lift} or {@code lift-then-restart}. */
    static final class RecoveryOrderName implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                RecoveryOrder.valueOf(text.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException("'" + text + "' is not a recovery order; use restart-then-lift or "
                        + "lift-then-restart");
            }
            return text.strip();
        }
    }
}

package kr.c4i.gateway.scenarios.experiment;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.HostTuning;
import kr.c4i.gateway.scenarios.net.ImpairmentBackend;
import kr.c4i.gateway.scenarios.net.LinkDelay;
import kr.c4i.gateway.scenarios.net.LinkShape;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.net.Shell;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.net.WanNetwork;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.scenarios.node.GatewayNode;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.scenarios.node.NodeStartException;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.core.transport.TransportKind;

/**
 * Runs a plan: builds the network, then per transport a two-node deployment (recovery, loss) and a 1:N
 * deployment, each started only for its experiments and stopped after them. A failure stays with its
 * repetition or deployment and is listed in the result; the network and every node are gone when this returns.
 */
public final class ScenarioRunner {

    /** Consecutive failed repetitions after which a deployment is given up. */
    private static final int MAX_FAILURES = 3;

    /**
     * Where and how to run.
     *
     * @param topology the emulated network's names and addresses
     * @param backend impairment backend, or null to use netem when the kernel has it
     * @param hostTuning kernel settings for the hosts
     * @param nodes how nodes are started
     * @param workRoot where nodes keep databases and journals during the run (deleted at the end)
     * @param logDir where node consoles are written
     * @param secured whether nodes and gateways run with a site PKI of the run's own (the default) or plain
     */
    public record Options(Topology topology, @Nullable ImpairmentBackend backend, HostTuning hostTuning,
            NodeSettings nodes, Path workRoot, Path logDir, boolean secured) {
    }

    private final RunPlan plan;
    private final Options options;
    private final Progress progress;
    private final Consumer<String> log;
    private final Shell shell;
    private final String command;
    private final List<RepetitionResult> results = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private @Nullable Path nodeJarCopy;
    private Consumer<RunResult> checkpoint = partial -> {
    };
    private Instant started = Instant.now();
    private @Nullable RunSetup setup;
    private int stepsDone;

    public ScenarioRunner(RunPlan plan, Options options, Progress progress, Consumer<String> log, Shell shell,
            String command) {
        this.plan = plan;
        this.options = options;
        this.progress = progress;
        this.log = log;
        this.shell = shell;
        this.command = command;
    }

    /**
     * Receives the run so far after every repetition, marked incomplete, so a run stopped after hours (Ctrl-C, a
     * crash) still leaves what it measured.
     */
    public ScenarioRunner onCheckpoint(Consumer<RunResult> receiver) {
        this.checkpoint = receiver;
        return this;
    }

    public RunResult run() {
        started = Instant.now();
        ScenarioTypes types = ScenarioTypes.choose(KmtfCatalogue.loadDefault(), plan);
        RunSetup setup;
        try {
            snapshotNodeJar();
            try (EmulatedNetwork network = EmulatedNetwork.create(options.topology(), shell, options.backend(),
                    options.hostTuning(), log)) {
                network.afterClose(() -> Testbed.deleteTree(options.workRoot(), log));
                setup = setup(network, types);
                this.setup = setup;
                log.accept("Network up: " + setup.backend() + "; TCP congestion control " + setup.congestionControl()
                        + "; ARP retry " + setup.arpRetryMillis() + " ms");
                network.shape(options.topology().hostIndexes(), new LinkShape(Rate.GBIT_1, 0, plan.queuePackets()));
                if (plan.transportExperiments()) {
                    for (TransportKind transport : plan.transports()) {
                        runTransport(network, transport, types);
                    }
                }
                if (plan.runs(ExperimentKind.WAN)) {
                    runWan(network.backend(), types);
                }
            }
        }
        finally {
            Testbed.deleteTree(options.workRoot(), log);
        }
        return new RunResult(command, started, Instant.now(), plan, setup, results, problems);
    }

    private void runTransport(EmulatedNetwork network, TransportKind transport, ScenarioTypes types) {
        for (RunPlan.Deployment deployment : plan.deployments()) {
            run(network, transport, types, deployment);
        }
    }

    private void run(EmulatedNetwork network, TransportKind transport, ScenarioTypes types,
            RunPlan.Deployment deployment) {
        List<Integer> hosts = java.util.stream.IntStream.rangeClosed(1, deployment.hosts()).boxed().toList();
        Map<Integer, List<String>> routing = types.routing(deployment);
        Testbed testbed = new Testbed(deployment.name(), network, transport, hosts, routing, nodeSettings(),
                options.workRoot(), options.logDir(), options.secured(), log);
        Budget budget = new Budget(plan.steps(deployment));
        try (testbed) {
            start(testbed, types.sizes(plan, deployment), routing);
            budget.left--;
            if (deployment.runs(ExperimentKind.RECOVERY)) {
                RecoveryExperiment recovery = new RecoveryExperiment(network, plan, types);
                for (int r = 1; r <= plan.repetitions(); r++) {
                    int rep = r;
                    repeat(testbed, budget, transport.label() + " recovery " + r + "/" + plan.repetitions(),
                            () -> recovery.run(testbed, rep));
                }
            }
            if (deployment.runs(ExperimentKind.LOSS)) {
                LossExperiment loss = new LossExperiment(network, plan, types, log);
                RepetitionResult calibration = repeat(testbed, budget, transport.label() + " loss calibration",
                        () -> loss.calibrate(testbed));
                Double perMessage = calibration == null ? null
                        : calibration.metric(Metrics.BYTES_PER_MESSAGE).stream().boxed().findFirst().orElse(null);
                for (LossCell cell : plan.lossCells()) {
                    for (int r = 1; r <= plan.repetitions(); r++) {
                        int rep = r;
                        repeat(testbed, budget, transport.label() + " loss " + cell.key() + " " + r + "/"
                                + plan.repetitions(), () -> loss.run(testbed, cell, rep, perMessage));
                    }
                }
            }
            if (deployment.runs(ExperimentKind.FANOUT)) {
                FanOutExperiment experiment = new FanOutExperiment(network, plan, types);
                for (int n : plan.subscribers()) {
                    for (int r = 1; r <= plan.repetitions(); r++) {
                        int rep = r;
                        repeat(testbed, budget, transport.label() + " 1:" + n + " " + r + "/" + plan.repetitions(),
                                () -> experiment.run(testbed, n, rep));
                    }
                }
            }
        }
        catch (NodeStartException | RuntimeException ex) {
            giveUp(transport.label() + " " + deployment.name(), ex, budget);
        }
    }

    /** The {@code wan} experiment on its own network (two sites and the WAN between them), link after link. */
    private void runWan(ImpairmentBackend backend, ScenarioTypes types) {
        WanPlan wan = plan.wan();
        Budget budget = new Budget(plan.wanSteps());
        try (WanNetwork network = WanNetwork.create(WanTopology.of(options.topology()), shell, backend,
                options.hostTuning(), log)) {
            log.accept("WAN network up: sites " + network.topology().site1().subnet() + ".0/24 and "
                    + network.topology().site2().subnet() + ".0/24, WAN " + network.topology().wan().subnet() + ".0/24");
            for (WanLinkKind link : wan.links()) {
                runWanLink(network, link, types, budget);
            }
        }
        catch (RuntimeException ex) {
            String message = "wan given up: " + ex.getMessage();
            problems.add(message);
            log.accept(message);
        }
        while (budget.left-- > 0) {
            progress.step("wan: skipped");
        }
    }

    /**
     * One link's deployment: cells grouped by rate and compression, so the gateways restart only when their budget
     * or their compression changes.
     */
    private void runWanLink(WanNetwork network, WanLinkKind link, ScenarioTypes types, Budget budget) {
        WanPlan wan = plan.wan();
        WanExperiment experiment = new WanExperiment(network, plan, types.loss(), log);
        List<WanStep> steps = WanStep.ordered(wan);
        String what = "wan " + link.label();
        int left = 1 + wan.cellCount() * plan.repetitions();
        WanStep first = steps.getFirst();
        try (WanTestbed bed = new WanTestbed(network, link, wan.nodesPerSite(),
                WanExperiment.subscriptions(types.loss()), WanExperiment.budget(link, first.rate()),
                first.variant().compressed(), nodeSettings(), options.workRoot(), options.logDir(), options.secured(),
                log)) {
            network.delayWan(first.delay(), delayLauncher());
            progress.status(what + ": starting nodes and gateways");
            bed.start(plan.nodeStartTimeout());
            progress.status(what + ": warming up");
            experiment.warmUp(bed, first, plan.deliveryTimeout());
            budget.left--;
            left--;
            progress.step(what + " ready");
            int failures = 0;
            for (WanStep step : steps) {
                network.delayWan(step.delay(), delayLauncher());
                if (bed.useGateways(WanExperiment.budget(link, step.rate()), step.variant().compressed(),
                        plan.nodeStartTimeout())) {
                    experiment.warmUp(bed, step, plan.deliveryTimeout());
                }
                for (int r = 1; r <= plan.repetitions(); r++) {
                    int rep = r;
                    String label = what + " " + step.key(wan) + " " + r + "/" + plan.repetitions();
                    progress.status(label);
                    budget.left--;
                    left--;
                    try {
                        RepetitionResult result = step.cell() == null ? experiment.outage(bed, step.variant(), rep)
                                : experiment.run(bed, step.cell(), step.variant(), rep);
                        results.add(result);
                        saveCheckpoint();
                        failures = 0;
                        progress.step(label + ": " + summary(result));
                        log.accept(label + ": " + result.metrics()
                                + (result.note().isEmpty() ? "" : " (" + result.note() + ")"));
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("Interrupted during " + label, ex);
                    }
                    catch (Exception ex) {
                        problems.add(label + " failed: " + ex.getMessage());
                        log.accept(label + " failed: " + ex);
                        saveCheckpoint();
                        progress.step(label + ": FAILED");
                        network.restoreWan();
                        network.unshapeWan();
                        if (++failures >= MAX_FAILURES) {
                            throw new IllegalStateException(MAX_FAILURES + " repetitions in a row failed", ex);
                        }
                    }
                }
            }
        }
        catch (NodeStartException | RuntimeException ex) {
            String message = what + " given up: " + ex.getMessage();
            problems.add(message);
            log.accept(message);
            while (left-- > 0) {
                budget.left--;
                progress.step(what + ": skipped");
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during " + what, ex);
        }
        catch (Exception ex) {
            problems.add(what + " failed: " + ex.getMessage());
            log.accept(what + " failed: " + ex);
            while (left-- > 0) {
                budget.left--;
                progress.step(what + ": skipped");
            }
        }
    }

    /** Starts the deployment and warms every type up; one progress step. */
    private void start(Testbed testbed, Map<String, Integer> sizeByType, Map<Integer, List<String>> routing)
            throws NodeStartException {
        String what = testbed.transport().label() + " " + testbed.hostCount() + " " + testbed.name();
        progress.status(what + ": starting nodes");
        testbed.start(plan.nodeStartTimeout());
        progress.status(what + ": warming up");
        try {
            for (Map.Entry<String, Integer> e : sizeByType.entrySet()) {
                List<Integer> subscribers = routing.entrySet().stream()
                        .filter(r -> r.getValue().contains(e.getKey())).map(Map.Entry::getKey).sorted().toList();
                testbed.warmUp(Map.of(e.getKey(), subscribers), plan.warmupMessages(), e.getValue(),
                        plan.deliveryTimeout());
            }
        }
        catch (java.sql.SQLException ex) {
            throw new IllegalStateException("Warm-up of " + what + " failed: " + ex.getMessage(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while warming up " + what, ex);
        }
        progress.step(what + " ready");
    }

    /** A measurement that may throw anything. */
    @FunctionalInterface
    private interface Measurement {
        RepetitionResult measure() throws Exception;
    }

    /** Steps left in a deployment, so a deployment given up still moves the progress bar to its end. */
    private static final class Budget {
        int left;
        int failures;

        Budget(int steps) {
            this.left = steps;
        }
    }

    private @Nullable RepetitionResult repeat(Testbed testbed, Budget budget, String what, Measurement measurement)
            throws NodeStartException {
        progress.status(what);
        try {
            RepetitionResult result = measurement.measure();
            results.add(result);
            saveCheckpoint();
            budget.failures = 0;
            budget.left--;
            progress.step(what + ": " + summary(result));
            log.accept(what + ": " + result.metrics() + (result.note().isEmpty() ? "" : " (" + result.note() + ")"));
            return result;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted during " + what, ex);
        }
        catch (Exception ex) {
            problems.add(what + " failed: " + ex.getMessage());
            log.accept(what + " failed: " + ex);
            saveCheckpoint();
            budget.left--;
            progress.step(what + ": FAILED");
            if (++budget.failures >= MAX_FAILURES) {
                throw new IllegalStateException(MAX_FAILURES + " repetitions in a row failed", ex);
            }
            recover(testbed);
            return null;
        }
    }

    private void saveCheckpoint() {
        stepsDone++;
        if (setup == null) {
            return;
        }
        List<String> marked = new ArrayList<>(problems);
        marked.add("Incomplete: the run as saved after " + stepsDone + " repetitions, while it was still going (it "
                + "was stopped there, or is still running)");
        checkpoint.accept(new RunResult(command, started, Instant.now(), plan, setup, results, marked));
    }

    /** After a failed repetition: every node of the deployment running and reachable again. */
    private void recover(Testbed testbed) throws NodeStartException {
        testbed.uncutAll();
        for (GatewayNode node : testbed.nodes()) {
            if (!node.alive()) {
                node.stop();
                node.start(plan.nodeStartTimeout());
            }
        }
    }

    private void giveUp(String what, Exception ex, Budget budget) {
        String message = what + " given up: " + ex.getMessage();
        problems.add(message);
        log.accept(message);
        while (budget.left-- > 0) {
            progress.step(what + ": skipped");
        }
    }

    private static String summary(RepetitionResult r) {
        String head = r.delivered() + "/" + r.expected();
        for (String key : List.of(Metrics.RESPONSE_MS, Metrics.BIT_RATE, Metrics.MSG_PER_S, Metrics.BYTES_PER_MESSAGE)) {
            var value = r.metric(key);
            if (value.isPresent()) {
                return head + ", " + key + " " + Math.round(value.getAsDouble());
            }
        }
        return head;
    }

    /**
     * Runs every node from a copy of the jar taken now: a rebuild of the tools during a long run cannot change
     * (or break) the nodes half-way.
     */
    private void snapshotNodeJar() {
        Path original = options.nodes().jar();
        try {
            java.nio.file.Files.createDirectories(options.workRoot());
            Path copy = options.workRoot().resolve(original.getFileName());
            java.nio.file.Files.copy(original, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            nodeJarCopy = copy;
            log.accept("Nodes run a copy of " + original + " (" + java.nio.file.Files.size(original) + " bytes, "
                    + java.nio.file.Files.getLastModifiedTime(original) + ")");
            String jvmOptions = System.getenv("JDK_JAVA_OPTIONS");
            if (jvmOptions != null && !jvmOptions.isBlank()) {
                // The nodes inherit it, and their figures depend on it.
                log.accept("Nodes' JVMs also take JDK_JAVA_OPTIONS=" + jvmOptions.strip());
            }
        }
        catch (java.io.IOException ex) {
            throw new IllegalStateException("Unable to copy the node jar " + original + " to " + options.workRoot()
                    + ": " + ex.getMessage(), ex);
        }
    }

    /** The WAN delay helper runs on the nodes' Java with the harness's own class path. */
    private LinkDelay.Launcher delayLauncher() {
        return LinkDelay.Launcher.of(nodeSettings().java());
    }

    private NodeSettings nodeSettings() {
        NodeSettings n = options.nodes();
        return nodeJarCopy == null ? n : new NodeSettings(n.java(), nodeJarCopy, n.heap(), n.jmsRetryInterval(),
                n.ddsDomain(), n.multicastAddress(), n.extraProperties(), n.gatewayProperties());
    }

    private RunSetup setup(EmulatedNetwork network, ScenarioTypes types) {
        Set<Rate> rates = new LinkedHashSet<>();
        rates.add(Rate.GBIT_1);
        if (plan.runs(ExperimentKind.LOSS)) {
            plan.lossCells().forEach(c -> rates.add(c.rate()));
        }
        if (plan.runs(ExperimentKind.WAN)) {
            plan.wan().cells().forEach(c -> rates.add(c.rate()));
            if (plan.wan().outage() != null) {
                rates.add(plan.wan().outageRate());
            }
        }
        List<RunSetup.Queue> queues = new ArrayList<>();
        for (Rate rate : rates) {
            LinkShape shape = new LinkShape(rate, 0, plan.queuePackets());
            queues.add(new RunSetup.Queue(rate.label(), plan.queuePackets(), shape.limitBytes(), shape.burstBytes(),
                    shape.queueMillis()));
        }
        String typeList = "recovery " + types.recovery() + ", loss " + types.loss() + ", 1:N " + types.fanOut();
        List<String> extra = options.nodes().extraProperties().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        List<String> gatewayExtra = options.nodes().gatewayProperties().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).sorted().toList();
        return new RunSetup(network.backend().description(), network.congestionControl(), network.arpRetryMillis(),
                options.topology().hosts(), options.topology().subnet() + ".0/24", queues,
                System.getProperty("os.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.version().toString(), options.nodes().jar().toString(), options.nodes().heap(), typeList, extra,
                gatewayExtra, options.secured());
    }
}

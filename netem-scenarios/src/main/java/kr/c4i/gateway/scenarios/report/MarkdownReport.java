package kr.c4i.gateway.scenarios.report;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import kr.c4i.gateway.scenarios.experiment.CellKeys;
import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RecoveryOrder;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.WanPlan;
import kr.c4i.gateway.scenarios.experiment.WanVariant;
import kr.c4i.gateway.scenarios.net.LinkDelay;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.RunSetup;
import kr.c4i.gateway.scenarios.net.HostTuning;
import kr.c4i.gateway.scenarios.report.StudyFigures.Figure;

/**
 * The run's report in Markdown: the setup, the targets, and tables laid out like the study's Tables 2-5 with the
 * study's numbers beside ours and the DDS/JMS ratio per cell. Pure: a result in, text out.
 */
public final class MarkdownReport {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final String JMS = "jms";
    private static final String DDS = "dds";

    private MarkdownReport() {
    }

    /**
     * @param run the run
     * @param figures chart file names (or paths relative to where the report is read), by figure label
     */
    public static String render(RunResult run, Map<String, String> figures) {
        StringBuilder md = new StringBuilder();
        RunPlan plan = run.plan();
        md.append("# The study's experiments on an emulated network: JMS and DDS\n\n");
        if (plan.quick()) {
            md.append("> **Quick run** (").append(plan.repetitions()).append(plan.repetitions() == 1 ? " repetition" : " repetitions")
                    .append(", ").append(plan.fanOutMessages()).append(" messages per 1:N and ")
                    .append(plan.lossMessages()).append(" per loss repetition, ").append(plan.lossCells().size())
                    .append(" loss cells): a smoke run of the harness, **not** the study's full 15-repetition set. "
                            + "Standard deviations need at least two repetitions.\n\n");
        }
        else {
            md.append("Full run: ").append(plan.repetitions()).append(" repetitions per cell (the study ran 15).\n\n");
        }
        md.append("Command: `").append(run.command()).append("`  \n");
        md.append("Run: ").append(TIME.format(run.startedAt())).append(" to ").append(TIME.format(run.finishedAt()))
                .append(" (").append(minutes(Duration.between(run.startedAt(), run.finishedAt()))).append(")\n\n");

        setup(md, run);
        targets(md, run);
        if (plan.runs(ExperimentKind.RECOVERY)) {
            recovery(md, run);
        }
        if (plan.runs(ExperimentKind.FANOUT)) {
            fanOut(md, run);
        }
        if (plan.runs(ExperimentKind.LOSS)) {
            loss(md, run);
        }
        if (plan.runs(ExperimentKind.WAN)) {
            wan(md, run);
        }
        if (!figures.isEmpty()) {
            md.append("## Figures\n\n");
            figures.forEach((label, file) -> md.append("![Figure ").append(label).append("](").append(file)
                    .append(")\n\n"));
        }
        if (!run.problems().isEmpty()) {
            md.append("## Problems\n\n");
            run.problems().forEach(p -> md.append("- ").append(p.replace("\n", " ")).append('\n'));
            md.append('\n');
        }
        notes(md, run);
        return md.toString();
    }

    private static void setup(StringBuilder md, RunResult run) {
        RunSetup s = run.setup();
        md.append("## Setup\n\n| | |\n|---|---|\n");
        row(md, "Network", s.hosts() + " host namespaces on one switch namespace (Linux bridge: no STP, no forward delay, "
                + "no IGMP snooping), " + s.subnet() + ", IPv6 off, TSO/GSO/GRO off, multicast route 224.0.0.0/4");
        row(md, "Impairment backend", s.backend());
        List<String> queues = new ArrayList<>();
        for (RunSetup.Queue q : s.queues()) {
            queues.add(q.rate() + ": " + q.packets() + " packets = " + Fmt.whole(q.limitBytes()) + " B, burst "
                    + Fmt.whole(q.burstBytes()) + " B, drains in " + Fmt.number(q.drainMillis()) + " ms");
        }
        row(md, "Queues (each shaper)", String.join("; ", queues));
        row(md, "Where", "rate on both ends of each link used (host egress and its switch port's egress); loss on every "
                + "frame a host of the cell sends, at its switch port (data one way, acknowledgements the other; ARP exempt)");
        row(md, "TCP congestion control", s.congestionControl());
        // Runs saved before the retry was recorded had the kernel's default.
        Integer arpRetry = s.arpRetryMillis();
        String kernelArpRetry = Fmt.whole(HostTuning.KERNEL_ARP_RETRY_MILLIS) + " ms";
        row(md, "ARP retry (hosts)", arpRetry == null ? "kernel default (" + kernelArpRetry + ")"
                : Fmt.whole(arpRetry) + " ms"
                        + (arpRetry == HostTuning.KERNEL_ARP_RETRY_MILLIS ? " (kernel default)" : ""));
        row(md, "Nodes", "gateway-tools executable jar (" + s.nodeJar() + "), node command, -Xmx" + s.nodeHeap() + ", one per host; "
                + deployments(run.plan()) + "; every node with its own embedded PostgreSQL and (JMS) Artemis broker inside its host; "
                + "host 1 publishes" + (s.nodeProperties().isEmpty() ? "" : "; extra properties " + s.nodeProperties())
                + (s.gatewayProperties().isEmpty() ? "" : "; the WAN gateways' extra properties "
                        + s.gatewayProperties()));
        row(md, "Security", Boolean.TRUE.equals(s.secured())
                ? "on: a site PKI per deployment, brokers in mutual TLS, DDS Security (each node its own identity), "
                        + "WAN frames sealed; on the wan experiment's DDS LANs the gateways too, granted the other "
                        + "site's nodes"
                : "off (--plain, or a run before security was on by default): brokers in plain TCP, DDS without "
                        + "DDS Security, WAN frames in clear");
        row(md, "KMTF types (all RELIABLE)", s.types());
        row(md, "Machine", "kernel " + s.kernel() + ", " + s.cpus() + " CPUs, Java " + s.java());
        md.append('\n');
    }

    private static void targets(StringBuilder md, RunResult run) {
        md.append("## Targets\n\n| | target | measured |\n|---|---|---|\n");
        for (Targets.Check check : Targets.evaluate(run)) {
            String status = switch (check.status()) {
                case MET -> "**met**";
                case MISSED -> "**missed**";
                case NOT_MEASURED -> "not measured";
            };
            md.append("| ").append(status).append(" | ").append(check.description()).append(" | ")
                    .append(check.measured()).append(" |\n");
        }
        md.append('\n');
    }

    private static void recovery(StringBuilder md, RunResult run) {
        RunPlan plan = run.plan();
        md.append("## Table 2: response time when a node recovers after an emergency stop (ms)\n\n");
        md.append(Fmt.whole(plan.recoverySize())).append("-byte messages, ").append(plan.recoveryMessages())
                .append(" messages prepared on the publishing node while the receiving node was stopped, 1 Gbit/s, 1:1. ")
                .append(plan.recoveryOrder() == RecoveryOrder.RESTART_THEN_LIFT
                        ? "The receiver was restarted behind the cut; t0 is the moment the cut was lifted, once it reported READY."
                        : "The cut was lifted, then the receiver restarted; t0 is its READY line.")
                .append(" Response time: t0 to the last message committed in the receiver's inbox.\n\n");
        md.append("| middleware | study mean | study sd | ours mean | ours sd | n | delivered |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        Stats jms = Cells.stats(run, ExperimentKind.RECOVERY, JMS, CellKeys.RECOVERY, Metrics.RESPONSE_MS);
        Stats dds = Cells.stats(run, ExperimentKind.RECOVERY, DDS, CellKeys.RECOVERY, Metrics.RESPONSE_MS);
        for (String t : List.of(JMS, DDS)) {
            Figure study = StudyFigures.recovery(t);
            Stats ours = t.equals(JMS) ? jms : dds;
            md.append("| ").append(label(t)).append(" | ").append(Fmt.whole(study.mean())).append(" | ")
                    .append(Fmt.whole(study.sd())).append(" | ").append(Fmt.number(ours.mean())).append(" | ")
                    .append(Fmt.number(ours.sd())).append(" | ").append(ours.n()).append(" | ")
                    .append(delivered(run, ExperimentKind.RECOVERY, t, CellKeys.RECOVERY)).append(" |\n");
        }
        md.append("| DDS/JMS | ").append(Fmt.ratio(StudyFigures.RECOVERY_DDS.mean() / StudyFigures.RECOVERY_JMS.mean()))
                .append(" | | ").append(Fmt.ratio(dds.mean() / jms.mean())).append(" | | | |\n\n");

        md.append("Breakdown, mean (sd) ms from t0:\n\n");
        md.append("| middleware | reconnect / discovery | first frame at the receiver | first message | last message "
                + "(= response) | receiver boot (before t0, apart) |\n|---|---:|---:|---:|---:|---:|\n");
        for (String t : List.of(JMS, DDS)) {
            md.append("| ").append(label(t));
            for (String metric : List.of(Metrics.RECONNECT_MS, Metrics.FIRST_FRAME_MS, Metrics.FIRST_MESSAGE_MS,
                    Metrics.LAST_MESSAGE_MS, Metrics.BOOT_MS)) {
                md.append(" | ").append(Fmt.meanSd(Cells.stats(run, ExperimentKind.RECOVERY, t, CellKeys.RECOVERY,
                        metric)));
            }
            md.append(" |\n");
        }
        md.append("\nReconnect: JMS = the publisher's broker's TCP connection to the receiver's broker established; "
                + "DDS = the first frame from the publisher's side reaching the receiver (discovery starts there).\n\n");
    }

    private static void fanOut(StringBuilder md, RunResult run) {
        RunPlan plan = run.plan();
        List<Integer> ns = plan.subscribers();
        md.append("## Table 3: bandwidth used, 1 publisher to N subscribers (bps)\n\n");
        md.append(plan.fanOutSize()).append("-byte messages, ").append(Fmt.whole(plan.fanOutMessages()))
                .append(" messages, no loss, 1 Gbit/s. Ours: bytes the publisher's host put on the wire (its switch "
                        + "port's counter, Ethernet headers included) x 8 over the sending interval (first outbox insert "
                        + "to the last message in the last subscriber's inbox). Mean (sd).\n\n");
        md.append("| middleware |");
        ns.forEach(n -> md.append(" 1:").append(n).append(" study | 1:").append(n).append(" ours |"));
        md.append("\n|---|");
        ns.forEach(n -> md.append("---:|---:|"));
        md.append('\n');
        for (String t : List.of(JMS, DDS)) {
            md.append("| ").append(label(t)).append(" |");
            for (int n : ns) {
                Figure study = StudyFigures.bandwidth(t, n);
                md.append(' ').append(study == null ? Fmt.NONE : Fmt.whole(study.mean()) + " (" + Fmt.whole(study.sd()) + ")")
                        .append(" | ").append(Fmt.meanSdWhole(Cells.stats(run, ExperimentKind.FANOUT, t,
                                CellKeys.fanOut(n), Metrics.BIT_RATE)))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append("| DDS/JMS |");
        for (int n : ns) {
            Figure sj = StudyFigures.bandwidth(JMS, n);
            Figure sd = StudyFigures.bandwidth(DDS, n);
            md.append(' ').append(sj == null ? Fmt.NONE : Fmt.ratio(sd.mean() / sj.mean())).append(" | ")
                    .append(Fmt.ratio(mean(run, ExperimentKind.FANOUT, DDS, CellKeys.fanOut(n), Metrics.BIT_RATE)
                            / mean(run, ExperimentKind.FANOUT, JMS, CellKeys.fanOut(n), Metrics.BIT_RATE)))
                    .append(" |");
        }
        md.append("\n\nWire bytes the publisher's host sent, mean (sd), and the sending interval:\n\n");
        md.append("| middleware |");
        ns.forEach(n -> md.append(" 1:").append(n).append(" bytes | 1:").append(n).append(" interval ms |"));
        md.append(" bytes/message at 1:").append(ns.getFirst()).append(" | delivered |\n|---|");
        ns.forEach(n -> md.append("---:|---:|"));
        md.append("---:|---:|\n");
        for (String t : List.of(JMS, DDS)) {
            md.append("| ").append(label(t)).append(" |");
            for (int n : ns) {
                md.append(' ').append(Fmt.meanSdWhole(Cells.stats(run, ExperimentKind.FANOUT, t, CellKeys.fanOut(n),
                        Metrics.WIRE_BYTES))).append(" | ").append(Fmt.number(mean(run, ExperimentKind.FANOUT, t,
                                CellKeys.fanOut(n), Metrics.INTERVAL_MS))).append(" |");
            }
            md.append(' ').append(Fmt.number(mean(run, ExperimentKind.FANOUT, t, CellKeys.fanOut(ns.getFirst()),
                    Metrics.BYTES_PER_MESSAGE)));
            md.append(" | ");
            List<String> delivered = new ArrayList<>();
            for (int n : ns) {
                delivered.add("1:" + n + " " + delivered(run, ExperimentKind.FANOUT, t, CellKeys.fanOut(n)));
            }
            md.append(String.join(", ", delivered)).append(" |\n");
        }
        md.append('\n');
    }

    private static void loss(StringBuilder md, RunResult run) {
        RunPlan plan = run.plan();
        md.append("## Tables 4 and 5: messages per second processed under packet loss\n\n");
        md.append(plan.lossSize()).append("-byte messages, ").append(Fmt.whole(plan.lossMessages()))
                .append(" messages, 1:1. Ours: messages delivered / (last delivery - first insert), or / (deadline - "
                        + "first insert) when not all arrived in time. Capacity: link rate x (1 - loss) / the "
                        + "transport's wire bytes per message on a lossless link (calibration: JMS ")
                .append(Fmt.number(mean(run, ExperimentKind.LOSS, JMS, CellKeys.CALIBRATION, Metrics.BYTES_PER_MESSAGE)))
                .append(" B, DDS ")
                .append(Fmt.number(mean(run, ExperimentKind.LOSS, DDS, CellKeys.CALIBRATION, Metrics.BYTES_PER_MESSAGE)))
                .append(" B per message).\n\n");
        md.append("| loss | link | TCP (JMS) study | JMS ours | CoreDDS study | DDS ours | DDS/JMS study | DDS/JMS ours "
                + "| delivered JMS | delivered DDS | DDS capacity | DDS / capacity | measured loss |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LossCell cell : plan.lossCells()) {
            Figure sj = StudyFigures.loss(JMS, cell.loss(), cell.rate().bitsPerSecond());
            Figure sd = StudyFigures.loss(DDS, cell.loss(), cell.rate().bitsPerSecond());
            Stats jms = Cells.stats(run, ExperimentKind.LOSS, JMS, cell.key(), Metrics.MSG_PER_S);
            Stats dds = Cells.stats(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.MSG_PER_S);
            double capacity = mean(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.CAPACITY);
            double measuredLoss = Double.isNaN(mean(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.MEASURED_LOSS))
                    ? mean(run, ExperimentKind.LOSS, JMS, cell.key(), Metrics.MEASURED_LOSS)
                    : mean(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.MEASURED_LOSS);
            md.append("| ").append(Math.round(cell.loss() * 100)).append("% | ").append(cell.rate().label()).append(" | ")
                    .append(sj == null ? Fmt.NONE : Fmt.whole(sj.mean()) + " (" + Fmt.whole(sj.sd()) + ")").append(" | ")
                    .append(Fmt.meanSd(jms)).append(" | ")
                    .append(sd == null ? Fmt.NONE : Fmt.whole(sd.mean()) + " (" + Fmt.whole(sd.sd()) + ")").append(" | ")
                    .append(Fmt.meanSd(dds)).append(" | ")
                    .append(sj == null ? Fmt.NONE : Fmt.ratio(sd.mean() / sj.mean())).append(" | ")
                    .append(Fmt.ratio(dds.mean() / jms.mean())).append(" | ")
                    .append(delivered(run, ExperimentKind.LOSS, JMS, cell.key())).append(" | ")
                    .append(delivered(run, ExperimentKind.LOSS, DDS, cell.key())).append(" | ")
                    .append(Fmt.number(capacity)).append(" | ").append(Fmt.percent(dds.mean() / capacity)).append(" | ")
                    .append(Fmt.percent(measuredLoss)).append(" |\n");
        }
        md.append('\n');
    }

    /** Runs of a drain order the report shows. */
    private static final int ORDER_RUNS = 12;

    private static void wan(StringBuilder md, RunResult run) {
        RunPlan plan = run.plan();
        WanPlan wan = plan.wan();
        md.append("## WAN gateway: two sites over one impaired link\n\n");
        md.append("Two sites of ").append(WanTopology.SITE_HOSTS).append(" hosts, each on its own switch (LAN "
                + "unimpaired), their gateway hosts joined by one WAN link with the cell's rate and loss (loss on "
                + "every frame either gateway sends). Per site ").append(wan.nodesPerSite())
                .append(wan.nodesPerSite() == 1 ? " node" : " nodes").append(" and a WAN gateway (`wan`), the sites' "
                        + "LANs running the link's transport. ").append(routineLoad(wan)).append(" ROUTINE x ")
                .append(wan.size()).append("-byte messages from site 1's first node to site 2's first node; msg/s = "
                        + "delivered / (last delivery - first insert), or / (deadline - first insert). Meanwhile ")
                .append(wan.flashMessages()).append(" FLASH messages, one by one: their latency, outbox to inbox. "
                        + "Gateway budget: the link rate less the header allowance of full frames (x 1448/1514); "
                        + "norm: the link rate, as the link paces its packets with their IP and UDP headers counted. WAN "
                        + "bytes: what site 1's gateway put on the WAN (its WAN switch port), per message. Node sent: "
                        + "first insert to site 1's node having sent the last of the load onto its LAN. Node to "
                        + "node: the loss experiment's msg/s for the same cell, the two nodes on one impaired link "
                        + "and no gateway.\n\n");
        variants(md, wan);
        md.append("| loss | link rate | WAN link | variant | compression | budget | msg/s across the WAN | delivered "
                + "| node sent ms | FLASH p50 ms | FLASH p99 ms | FLASH delivered | WAN bytes/msg "
                + "| node to node JMS msg/s | node to node DDS msg/s |\n");
        md.append("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (LossCell cell : wan.cells()) {
            for (Duration delay : wan.delays()) {
                for (WanVariant variant : wan.variants()) {
                    for (var link : wan.links()) {
                        String key = CellKeys.wan(cell.key(), delay, variant);
                        String l = link.label();
                        // The loss experiment has no delay: its node-to-node figures stand beside undelayed rows only.
                        String jms = delay.isZero() ? Fmt.meanSd(Cells.stats(run, ExperimentKind.LOSS, JMS,
                                cell.key(), Metrics.MSG_PER_S)) : Fmt.NONE;
                        String dds = delay.isZero() ? Fmt.meanSd(Cells.stats(run, ExperimentKind.LOSS, DDS,
                                cell.key(), Metrics.MSG_PER_S)) : Fmt.NONE;
                        md.append("| ").append(Math.round(cell.loss() * 100)).append("% | ")
                                .append(cell.rate().label()).append(delayLabel(delay)).append(" | ").append(l)
                                .append(" | ").append(variant.label()).append(" | ").append(compression(run, l, key))
                                .append(" | ")
                                .append(Fmt.whole(mean(run, ExperimentKind.WAN, l, key, Metrics.BUDGET_BPS)))
                                .append(" | ")
                                .append(Fmt.meanSd(Cells.stats(run, ExperimentKind.WAN, l, key, Metrics.MSG_PER_S)))
                                .append(" | ").append(delivered(run, ExperimentKind.WAN, l, key)).append(" | ")
                                .append(Fmt.number(mean(run, ExperimentKind.WAN, l, key, Metrics.SENT_MS)))
                                .append(" | ")
                                .append(Fmt.number(mean(run, ExperimentKind.WAN, l, key, Metrics.FLASH_P50_MS)))
                                .append(" | ")
                                .append(Fmt.number(mean(run, ExperimentKind.WAN, l, key, Metrics.FLASH_P99_MS)))
                                .append(" | ")
                                .append(Fmt.whole(mean(run, ExperimentKind.WAN, l, key, Metrics.FLASH_DELIVERED)))
                                .append("/").append(wan.flashMessages()).append(" | ")
                                .append(Fmt.number(mean(run, ExperimentKind.WAN, l, key, Metrics.BYTES_PER_MESSAGE)))
                                .append(" | ").append(jms).append(" | ").append(dds).append(" |\n");
                    }
                }
            }
        }
        md.append('\n');
        if (wan.delayed()) {
            double dropped = run.repetitions().stream().filter(r -> r.experiment().equals(ExperimentKind.WAN.key()))
                    .mapToDouble(r -> r.metric(Metrics.DELAY_DROPPED).orElse(0)).sum();
            md.append("Rows with a delay (\"+ 250 ms delay\"): the WAN switch holds every IPv4 frame it forwards for "
                    + "that long, each way (an NFQUEUE helper: the round trip grows by twice the delay; ARP is not "
                    + "delayed), after the loss rule and before the far end's shaper. Its queue holds ")
                    .append(Fmt.whole(LinkDelay.MAX_PACKETS)).append(" frames; it dropped ").append(Fmt.whole(dropped))
                    .append(" over all delayed repetitions. The node-to-node columns are for the undelayed link only.\n\n");
        }
        sideBySide(md, run);
        normTargets(md, run);
        if (wan.outage() != null) {
            md.append("Outage: the WAN link at ").append(wan.outageRate().label()).append(", cut for ")
                    .append(wan.outage().toSeconds()).append(" s; during the cut site 1's first node writes ")
                    .append(wan.outageMessages()).append(" messages of each precedence, ROUTINE first and FLASH "
                            + "last. Drain: from lifting the cut to the last of them at site 2. In order: of the pairs "
                            + "of different precedence, the share delivered higher precedence first (1 = strict "
                            + "precedence order). Order: precedences as they arrived (first repetition).\n\n");
            md.append("| WAN link | variant | compression | delivered | drain ms | in order | order |\n"
                    + "|---|---|---:|---:|---:|---:|---|\n");
            for (Duration delay : wan.delays()) {
                for (WanVariant variant : wan.variants()) {
                    String key = wan.outageKey(delay, variant);
                    for (var link : wan.links()) {
                        String l = link.label();
                        var reps = Cells.of(run, ExperimentKind.WAN, l, key);
                        String order = reps.isEmpty() ? Fmt.NONE : shortOrder(reps.getFirst().note());
                        md.append("| ").append(l).append(delayLabel(delay)).append(" | ").append(variant.label())
                                .append(" | ").append(compression(run, l, key)).append(" | ")
                                .append(delivered(run, ExperimentKind.WAN, l, key))
                                .append(" | ").append(Fmt.meanSd(Cells.stats(run, ExperimentKind.WAN, l, key,
                                        Metrics.DRAIN_MS)))
                                .append(" | ")
                                .append(Fmt.ratio(mean(run, ExperimentKind.WAN, l, key, Metrics.DRAIN_IN_ORDER)))
                                .append(" | ").append(order.replace("|", "\\|")).append(" |\n");
                    }
                }
            }
            md.append('\n');
        }
    }

    /** What each variant of the run wrote and sent, and how its compression figure is found. */
    private static void variants(StringBuilder md, WanPlan wan) {
        md.append("Variant: ");
        List<String> variants = new ArrayList<>();
        for (WanVariant variant : wan.variants()) {
            variants.add("`" + variant.label() + "`, " + variant.description());
        }
        md.append(String.join("; ", variants)).append(". Compression: bytes after over bytes before, as the sending "
                + "gateways counted them during the cell (a loss cell's ROUTINE load and FLASH messages, all the "
                + "outage wrote): the bytes of the DATA frames they sent (`gateway.wan.bytes`, kind `data`: frame "
                + "headers included, before sealing) over the bytes of the messages those frames carried before "
                + "compression (`gateway.wan.payload.bytes`: each message's encoded header fields and body), read "
                + "from the gateways' `/actuator/prometheus` before and after the cell; a frame sent again counts "
                + "again on both sides. With compression off just above 100%: a frame's own header.\n\n");
    }

    /**
     * Where the nodes ran: per transport, each deployment's hosts and experiments; a run of the wan experiment alone
     * has none of these (its sites are deployed per WAN link).
     */
    private static String deployments(RunPlan plan) {
        if (plan.deployments().isEmpty()) {
            return "the wan experiment's two sites only, deployed anew for each WAN link (below)";
        }
        return "per transport, " + plan.deployments().stream()
                .map(d -> d.experiments().stream().map(ExperimentKind::key).collect(Collectors.joining(" and "))
                        + " on hosts 1.." + d.hosts())
                .collect(Collectors.joining(", then ")) + " (a deployment each, started once for its experiments)";
    }

    /** A wan cell's compression ratio as a share, or a dash for runs made before it was measured. */
    private static String compression(RunResult run, String link, String key) {
        return Fmt.percent(mean(run, ExperimentKind.WAN, link, key, Metrics.COMPRESSION_RATIO));
    }

    /** What a row's rate or link shows of its WAN delay: nothing without one. */
    private static String delayLabel(Duration delay) {
        return delay.isZero() ? "" : " + " + Fmt.whole(delay.toMillis()) + " ms delay";
    }

    /** Per loss cell the study's msg/s, ours node to node (the loss experiment) and across the WAN per link. */
    private static void sideBySide(StringBuilder md, RunResult run) {
        WanPlan wan = run.plan().wan();
        md.append("Side by side, messages per second, mean (sd): the study's Tables 4 and 5, ours node to node (the "
                + "loss experiment: two nodes on one impaired link, no gateway) and across the WAN over each link, "
                + "per variant; "
                + "payload bound: rate x (1 - loss) / (8 x ").append(wan.size()).append(" B).\n\n");
        md.append("| loss | link rate | TCP (JMS) study | CoreDDS study | node to node JMS | node to node DDS "
                + "| variant |");
        for (WanLinkKind link : WanLinkKind.values()) {
            md.append(" WAN ").append(link.label()).append(" |");
        }
        md.append(" payload bound |\n|---:|---:|---:|---:|---:|---:|---|");
        for (int i = 0; i < WanLinkKind.values().length; i++) {
            md.append("---:|");
        }
        md.append("---:|\n");
        for (LossCell cell : wan.cells()) {
            for (WanVariant variant : wan.variants()) {
                String key = variant.key(cell.key());
                md.append("| ").append(Math.round(cell.loss() * 100)).append("% | ").append(cell.rate().label())
                        .append(" | ").append(study(JMS, cell)).append(" | ").append(study(DDS, cell)).append(" | ")
                        .append(Fmt.meanSd(Cells.stats(run, ExperimentKind.LOSS, JMS, cell.key(), Metrics.MSG_PER_S)))
                        .append(" | ")
                        .append(Fmt.meanSd(Cells.stats(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.MSG_PER_S)))
                        .append(" | ").append(variant.label()).append(" |");
                for (WanLinkKind link : WanLinkKind.values()) {
                    md.append(' ').append(Fmt.meanSd(Cells.stats(run, ExperimentKind.WAN, link.label(), key,
                            Metrics.MSG_PER_S))).append(" |");
                }
                md.append(' ').append(Fmt.number(cell.payloadBound(wan.size()))).append(" |\n");
            }
        }
        md.append('\n');
    }

    private static String study(String transport, LossCell cell) {
        Figure f = StudyFigures.loss(transport, cell.loss(), cell.rate().bitsPerSecond());
        return f == null ? Fmt.NONE : Fmt.whole(f.mean()) + " (" + Fmt.whole(f.sd()) + ")";
    }

    /** {@code 1,000}, or {@code 1,000-11,250 (at least 10 s of each cell's payload bound)}. */
    private static String routineLoad(WanPlan wan) {
        IntSummaryStatistics counts = wan.messageCounts();
        return counts.getMin() == counts.getMax() ? Fmt.whole(counts.getMax())
                : Fmt.whole(counts.getMin()) + "-" + Fmt.whole(counts.getMax()) + " (at least "
                        + Fmt.whole(wan.messages()) + " and " + wan.cellSeconds() + " s of each cell's payload bound)";
    }

    /** The norm link's targets cell by cell, and what its FLASH figure was measured behind. */
    private static void normTargets(StringBuilder md, RunResult run) {
        List<NormTargets.Cell> cells = NormTargets.cells(run);
        if (cells.isEmpty()) {
            return;
        }
        WanPlan wan = run.plan().wan();
        long backlog = NormTargets.largestBacklogBytes(wan);
        md.append("The norm link's targets per cell. Delivered: every ROUTINE and FLASH message of every repetition. "
                + "Bound: at least ").append(Fmt.percent(NormTargets.BOUND_SHARE)).append(" of the payload bound; "
                + "above: more than the bound, what the link's compression should reach (no such target with "
                + "compression off). FLASH: the worst "
                + "repetition's p99 under ").append(Fmt.whole(NormTargets.FLASH_P99_2MBIT_MS)).append(" ms at 2 Mbit/s "
                + "and ").append(Fmt.whole(NormTargets.FLASH_P99_128KBIT_MS)).append(" ms at 128 kbit/s (no target "
                + "at other rates); across a delay, ").append(Fmt.whole(NormTargets.DELAYED_FLASH_P99_MS))
                .append(" ms at 30% loss and 128 kbit/s only, and no \"above\" target. The target names a 10 MB ROUTINE backlog; here the FLASH messages follow a ROUTINE "
                + "load of ").append(NormTargets.backlogText(wan)).append(" written at once at site 1, one by one over the first "
                        + "half of the load's nominal time, so each waits behind what is left of it")
                .append(backlog < NormTargets.TARGET_BACKLOG_BYTES ? ": **not** the 10 MB backlog, a lighter test"
                        : "")
                .append(".\n\n");
        md.append("| loss | link rate | variant | delivered | msg/s | bound | of bound | FLASH p99 ms (limit) |\n");
        md.append("|---:|---:|---|---|---|---:|---|---|\n");
        for (NormTargets.Cell c : cells) {
            md.append("| ").append(Math.round(c.cell().loss() * 100)).append("% | ").append(c.cell().rate().label())
                    .append(c.delayed() ? " + " + c.delay().toMillis() + " ms delay" : "")
                    .append(" | ").append(c.variant().label()).append(" | ").append(mark(c.reliable())).append(' ')
                    .append(delivered(run, ExperimentKind.WAN, WanLinkKind.NORM.label(), c.key()))
                    .append(" | ").append(Fmt.meanSd(c.msgPerS())).append(" | ").append(Fmt.number(c.bound()))
                    .append(" | ").append(Fmt.percent(c.msgPerS().mean() / c.bound())).append(" (")
                    .append(Fmt.percent(NormTargets.BOUND_SHARE)).append(": ").append(mark(c.boundShare()))
                    .append("; above: ").append(mark(c.aboveBound())).append(") | ")
                    .append(Double.isNaN(c.flashLimitMs()) ? Fmt.number(c.flashP99()) + " (no target)"
                            : mark(c.flash()) + " " + Fmt.number(c.flashP99()) + " (" + Fmt.whole(c.flashLimitMs())
                                    + ")")
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static String mark(Targets.Status status) {
        return switch (status) {
            case MET -> "met";
            case MISSED -> "**missed**";
            case NOT_MEASURED -> "not measured";
        };
    }

    /** The first runs of a drain order, the rest counted: the whole order is in results.json. */
    static String shortOrder(String note) {
        List<String> runs = List.of(note.replace("drain order: ", "").split(", "));
        return runs.size() <= ORDER_RUNS ? String.join(", ", runs)
                : String.join(", ", runs.subList(0, ORDER_RUNS)) + ", ... (" + (runs.size() - ORDER_RUNS)
                        + " more runs, ending " + runs.getLast() + ")";
    }

    private static void notes(StringBuilder md, RunResult run) {
        md.append("## Files\n\n`results.json` (the whole run, every repetition), `repetitions.csv` (one row per "
                + "repetition), `figure7-recovery`, `figure8-bandwidth`, `figure8b-wire-bytes`, `figure9-loss` (PNG and SVG), `run.log`, "
                + "`nodes/` (each node's console).\n");
    }

    /** {@code 200/200} for one repetition, {@code min-max/expected} for several. */
    private static String delivered(RunResult run, ExperimentKind experiment, String transport, String cell) {
        var reps = Cells.of(run, experiment, transport, cell);
        if (reps.isEmpty()) {
            return Fmt.NONE;
        }
        long min = reps.stream().mapToLong(r -> r.delivered()).min().orElse(0);
        long max = reps.stream().mapToLong(r -> r.delivered()).max().orElse(0);
        long expected = reps.getFirst().expected();
        return (min == max ? Long.toString(min) : min + "-" + max) + "/" + expected;
    }

    private static double mean(RunResult run, ExperimentKind experiment, String transport, String cell, String metric) {
        return Cells.stats(run, experiment, transport, cell, metric).mean();
    }

    private static String label(String transport) {
        return transport.equals(JMS) ? "TCP (JMS)" : "DDS (CoreDDS in the study)";
    }

    private static void row(StringBuilder md, String key, String value) {
        md.append("| ").append(key).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
    }

    private static String minutes(Duration d) {
        long s = d.toSeconds();
        return s / 60 + " min " + s % 60 + " s";
    }
}

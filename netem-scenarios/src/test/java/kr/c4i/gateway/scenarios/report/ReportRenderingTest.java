package kr.c4i.gateway.scenarios.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.RunSetup;
import kr.c4i.gateway.scenarios.experiment.WanVariant;

class ReportRenderingTest {

    @Test
    void tablesAreLaidOutLikeTheStudysWithItsNumbersBesideOursAndTheRatio() {
        String md = MarkdownReport.render(SampleRuns.ddsWins(), Map.of("7", "figure7-recovery.png"));
        assertThat(md).contains("> **Quick run**", "**not** the study's full 15-repetition set",
                "Command: `bin/scenarios run --quick`");
        assertThat(md).contains("## Table 2: response time when a node recovers after an emergency stop (ms)",
                "| TCP (JMS) | 52,319 | 6,104 | 1,000 | 141 | 2 | 200/200 |",
                "| DDS (CoreDDS in the study) | 2,665 | 1,481 | 300 | 42.4 | 2 | 200/200 |",
                "| DDS/JMS | 0.051 | | 0.30 | | | |");
        assertThat(md).contains("## Table 3: bandwidth used, 1 publisher to N subscribers (bps)",
                "| 1,349,168 (5,415) |", "| 4,477,420 (199,468) |");
        assertThat(md).contains("## Tables 4 and 5: messages per second processed under packet loss",
                "| 10% | 2 Mbit/s | 961 (203) |", "| 30% | 256 kbit/s | 27 (49) |");
        assertThat(md).contains("## Targets", "| **met** | Recovery: DDS response time under 500 ms |");
        assertThat(md).contains("![Figure 7](figure7-recovery.png)", "| ARP retry (hosts) | 100 ms |");
        assertThat(md).doesNotContain("NaN", "null");
    }

    @Test
    void theSetupNamesTheGatewaysExtraPropertiesWhenTheRunGaveThem() {
        RunResult run = SampleRuns.ddsWins();
        RunSetup s = run.setup();
        RunSetup tuned = new RunSetup(s.backend(), s.congestionControl(), s.arpRetryMillis(), s.hosts(), s.subnet(),
                s.queues(), s.kernel(), s.cpus(), s.java(), s.nodeJar(), s.nodeHeap(), s.types(), s.nodeProperties(),
                List.of("gateway.wan.norm.auto-parity=2"), s.secured());

        assertThat(MarkdownReport.render(run, Map.of())).doesNotContain("the WAN gateways' extra properties");
        assertThat(MarkdownReport.render(new RunResult(run.command(), run.startedAt(), run.finishedAt(), run.plan(),
                tuned, run.repetitions(), List.of()), Map.of()))
                .contains("; the WAN gateways' extra properties [gateway.wan.norm.auto-parity=2]");
    }

    @Test
    void aRunOfTheWanExperimentAloneSaysItsSitesAreItsOnlyDeployments() {
        RunResult run = SampleRuns.ddsWins();
        RunResult wanOnly = new RunResult(run.command(), run.startedAt(), run.finishedAt(),
                RunPlan.full(List.of(ExperimentKind.WAN), run.plan().transports()), run.setup(), run.repetitions(),
                List.of());

        assertThat(MarkdownReport.render(run, Map.of())).contains("one per host; per transport, ");
        assertThat(MarkdownReport.render(wanOnly, Map.of()))
                .contains("one per host; the wan experiment's two sites only, deployed anew for each WAN link")
                .doesNotContain("per transport,  (");
    }

    @Test
    void theWanTableStandsBesideTheLossExperimentsNodeToNodeFigures() {
        String md = MarkdownReport.render(SampleRuns.ddsWins(), Map.of());
        assertThat(md).contains("## WAN gateway: two sites over one impaired link",
                "| loss | link rate | WAN link | variant | compression | budget | msg/s across the WAN | delivered "
                        + "| node sent ms | FLASH p50 ms | FLASH p99 ms "
                        + "| FLASH delivered | WAN bytes/msg | node to node JMS msg/s | node to node DDS msg/s |");
        // node to node for 10% x 2 Mbit/s: JMS 0.2 and DDS 0.9 of the sample's capacity, 562.5 msg/s
        assertThat(md).contains("| 10% | 2 Mbit/s | jms | filler | 1.7% | 1,912,814 | 640 | 200/200 | 250 | 85.0 | 240 "
                + "| 10/10 | 120 | 113 (0.0) | 506 (0.0) |");
        assertThat(md).contains("| jms | filler | – | 100/100 | 4,200 | 0.97 | ROUTINE x3, FLASH x25, IMMEDIATE x25, "
                + "PRIORITY x25, ROUTINE x22 |");
    }

    @Test
    void delayedWanCellsHaveRowsOfTheirOwnWithoutTheUndelayedNodeToNodeFigures() {
        RunResult undelayed = SampleRuns.ddsWins();
        java.time.Duration delay = java.time.Duration.ofMillis(250);
        var plan = undelayed.plan().withWan(undelayed.plan().wan().withDelays(List.of(java.time.Duration.ZERO, delay)));
        List<RepetitionResult> reps = new ArrayList<>(undelayed.repetitions());
        reps.add(new RepetitionResult("wan", "jms", "10% 2 Mbit/s, 250 ms delay", 1, SampleRuns.T, 200, 200,
                new LinkedHashMap<>(Map.of(Metrics.MSG_PER_S, 300.0, Metrics.DELAY_MS, 250.0, Metrics.DELAY_DROPPED, 3.0)),
                ""));
        reps.add(new RepetitionResult("wan", "jms", "outage 10 s 2 Mbit/s, 250 ms delay", 1, SampleRuns.T, 100, 90,
                new LinkedHashMap<>(Map.of(Metrics.DRAIN_MS, 5000.0, Metrics.DELAY_DROPPED, 4.0)),
                "drain order: FLASH x90"));
        String md = MarkdownReport.render(new RunResult(undelayed.command(), undelayed.startedAt(),
                undelayed.finishedAt(), plan, undelayed.setup(), reps, List.of()), Map.of());
        // the undelayed row as before, the delayed one apart, its node-to-node columns empty
        assertThat(md).contains("| 10% | 2 Mbit/s | jms | filler | 1.7% | 1,912,814 | 640 | 200/200 |",
                "| 10% | 2 Mbit/s + 250 ms delay | jms | filler | – | – | 300 | 200/200 | – | – | – | –/10 | – | – "
                        + "| – |",
                "| jms | filler | – | 100/100 | 4,200 |",
                "| jms + 250 ms delay | filler | – | 90/100 | 5,000 | – | FLASH x90 |",
                "Its queue holds 1,024 frames; it dropped 7 over all delayed repetitions.");
        assertThat(MarkdownReport.render(undelayed, Map.of())).doesNotContain("ms delay", "Rows with a delay");
    }

    @Test
    void everyWanCellIsReportedOncePerVariantWithTheCompressionRatioOfItsBodies(@TempDir Path dir) throws Exception {
        RunResult filler = SampleRuns.ddsWins();
        var plan = filler.plan().withWan(filler.plan().wan().withVariants(WanVariant.parse("all")));
        List<RepetitionResult> reps = new ArrayList<>(filler.repetitions());
        reps.add(wan("jms", "10% 2 Mbit/s, mix", 300, 0.34));
        reps.add(wan("jms", "10% 2 Mbit/s, uncompressed", 250, 1.0));
        reps.add(wan("norm", "10% 2 Mbit/s, mix", 1100, 0.34));
        reps.add(wan("norm", "10% 2 Mbit/s, uncompressed", 1050, 1.0));
        RunResult run = new RunResult(filler.command(), filler.startedAt(), filler.finishedAt(), plan,
                filler.setup(), reps, List.of());

        String md = MarkdownReport.render(run, Map.of());
        assertThat(md).contains("Variant: `filler`, today's bodies, one filler text", "; `mix`, varied report texts",
                "; `uncompressed`, the same varied texts, the gateways sending their frames uncompressed",
                "as the sending gateways counted them during the cell", "`gateway.wan.payload.bytes`");
        assertThat(md).contains("| 10% | 2 Mbit/s | jms | filler | 1.7% | 1,912,814 | 640 | 200/200 |",
                "| 10% | 2 Mbit/s | jms | mix | 34.0% | – | 300 | 200/200 |",
                "| 10% | 2 Mbit/s | jms | uncompressed | 100.0% | – | 250 | 200/200 |",
                "| jms | uncompressed | – | – | – | – | – |");
        assertThat(md).contains("| 10% | 2 Mbit/s | 961 (203) | 594 (212) | 113 (0.0) | 506 (0.0) | mix | 300 | – "
                + "| 1,100 | 1,125 |");
        // With compression off the bound measures the link itself; more than the bound is no target there.
        assertThat(md).contains("| 10% | 2 Mbit/s | mix | met 200/200 | 1,100 | 1,125 | 97.8% (90.0%: met; above: "
                + "**missed**) |", "| 10% | 2 Mbit/s | uncompressed | met 200/200 | 1,050 | 1,125 | 93.3% (90.0%: "
                        + "met; above: not measured) |");

        ResultFiles.writeAll(run, dir);
        String json = Files.readString(dir.resolve(ResultFiles.JSON));
        assertThat(json).contains("\"UNCOMPRESSED\"", "\"cell\" : \"10% 2 Mbit/s, mix\"",
                "\"wan_compression_ratio\" : 0.34");
        assertThat(ResultFiles.read(dir)).isEqualTo(run);
    }

    @Test
    void aRunSavedBeforeWanVariantsExistedReadsBackAsTodaysBodies(@TempDir Path dir) throws Exception {
        ResultFiles.writeAll(SampleRuns.ddsWins(), dir);
        Path json = dir.resolve(ResultFiles.JSON);
        tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder().build();
        tools.jackson.databind.node.ObjectNode saved = (tools.jackson.databind.node.ObjectNode) mapper
                .readTree(Files.readString(json));
        assertThat(((tools.jackson.databind.node.ObjectNode) saved.get("plan").get("wan")).remove("variants"))
                .isNotNull();
        Files.writeString(json, mapper.writeValueAsString(saved));
        assertThat(ResultFiles.read(dir).plan().wan().variants()).containsExactly(WanVariant.FILLER);
    }

    private static RepetitionResult wan(String link, String cell, double msgPerS, double compression) {
        return new RepetitionResult("wan", link, cell, 1, SampleRuns.T, 200, 200, new LinkedHashMap<>(Map.of(
                Metrics.MSG_PER_S, msgPerS, Metrics.COMPRESSION_RATIO, compression, Metrics.FLASH_DELIVERED, 10.0,
                Metrics.FLASH_P99_MS, 400.0)), "");
    }

    @Test
    void aRunSavedBeforeTheWanDelayExistedReadsBackWithoutOne(@TempDir Path dir) throws Exception {
        ResultFiles.writeAll(SampleRuns.ddsWins(), dir);
        Path json = dir.resolve(ResultFiles.JSON);
        tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder().build();
        tools.jackson.databind.node.ObjectNode saved = (tools.jackson.databind.node.ObjectNode) mapper
                .readTree(Files.readString(json));
        assertThat(((tools.jackson.databind.node.ObjectNode) saved.get("plan").get("wan")).remove("delays")).isNotNull();
        Files.writeString(json, mapper.writeValueAsString(saved));
        assertThat(ResultFiles.read(dir).plan().wan()).isEqualTo(kr.c4i.gateway.scenarios.experiment.WanPlan.quick());
    }

    @Test
    void theStudyNodeToNodeAndEveryWanLinkStandSideBySideWithTheNormTargetsPerCell() {
        String md = MarkdownReport.render(SampleRuns.ddsWins(), Map.of());
        assertThat(md).contains("| loss | link rate | TCP (JMS) study | CoreDDS study | node to node JMS | node to node DDS "
                + "| variant | WAN jms | WAN dds | WAN norm | payload bound |");
        // the study's 961 and 594 msg/s, ours node to node, jms and norm across the WAN, dds not run
        assertThat(md).contains("| 10% | 2 Mbit/s | 961 (203) | 594 (212) | 113 (0.0) | 506 (0.0) | filler | 640 | – "
                + "| 1,200 | 1,125 |");
        assertThat(md).contains("| 10% | 2 Mbit/s | filler | met 200/200 | 1,200 | 1,125 | 106.7% (90.0%: met; above: "
                + "met) | met 400 (1,000) |");
        // the FLASH figure is measured behind the run's ROUTINE load, and the report says it is not 10 MB
        assertThat(md).contains("ROUTINE load of 200 x 200 B = 40 kB", "**not** the 10 MB backlog");
        assertThat(MarkdownReport.render(SampleRuns.ddsLoses(), Map.of())).contains(
                "| 10% | 2 Mbit/s | filler | **missed** 190/200 | 900 | 1,125 | 80.0% (90.0%: **missed**; above: "
                        + "**missed**) | **missed** 1,500 (1,000) |");
    }

    @Test
    void aLongDrainOrderShowsItsFirstRunsAndHowItEnds() {
        String note = "drain order: " + String.join(", ", java.util.Collections.nCopies(20, "FLASH x1, ROUTINE x1"));
        assertThat(MarkdownReport.shortOrder(note)).startsWith("FLASH x1, ROUTINE x1, FLASH x1")
                .endsWith(", ... (28 more runs, ending ROUTINE x1)");
        assertThat(MarkdownReport.shortOrder("drain order: FLASH x25, ROUTINE x25")).isEqualTo("FLASH x25, ROUTINE x25");
    }

    @Test
    void aRunSavedBeforeTheWanExperimentReadsBackWithItsDefaultSet(@TempDir Path dir) throws Exception {
        ResultFiles.writeAll(SampleRuns.ddsWins(), dir);
        Path json = dir.resolve(ResultFiles.JSON);
        tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder().build();
        tools.jackson.databind.node.ObjectNode saved = (tools.jackson.databind.node.ObjectNode) mapper
                .readTree(Files.readString(json));
        assertThat(((tools.jackson.databind.node.ObjectNode) saved.get("plan")).remove("wan")).isNotNull();
        Files.writeString(json, mapper.writeValueAsString(saved));
        RunResult old = ResultFiles.read(dir);
        assertThat(old.plan().wan()).isEqualTo(kr.c4i.gateway.scenarios.experiment.WanPlan.quick());
    }

    @Test
    void aRunSavedBeforeTheArpRetryWasRecordedReadsBackAsTheKernelDefault(@TempDir Path dir) throws Exception {
        ResultFiles.writeAll(SampleRuns.ddsWins(), dir);
        Path json = dir.resolve(ResultFiles.JSON);
        String saved = Files.readString(json);
        assertThat(saved).contains("\"arpRetryMillis\" : 100,");
        Files.writeString(json, saved.replace("\"arpRetryMillis\" : 100,", ""));
        RunResult old = ResultFiles.read(dir);
        assertThat(old.setup().arpRetryMillis()).isNull();
        assertThat(MarkdownReport.render(old, Map.of())).contains("| ARP retry (hosts) | kernel default (1,000 ms) |");
    }

    @Test
    void theSetupSaysWhetherSecurityWasOnAndARunSavedBeforeItWasRecordedRanPlain(@TempDir Path dir) throws Exception {
        assertThat(MarkdownReport.render(SampleRuns.ddsWins(), Map.of())).contains("| Security | on: a site PKI");
        ResultFiles.writeAll(SampleRuns.ddsWins(), dir);
        Path json = dir.resolve(ResultFiles.JSON);
        String saved = Files.readString(json);
        assertThat(saved).contains("\"secured\" : true");
        Files.writeString(json, saved.replaceAll(",\\s*\"secured\" : true", ""));
        RunResult old = ResultFiles.read(dir);
        assertThat(old.setup().secured()).isNull();
        assertThat(MarkdownReport.render(old, Map.of())).contains("| Security | off (--plain, or a run before");
    }

    @Test
    void aFullRunSaysSoAndProblemsAreListed() {
        RunResult sample = SampleRuns.ddsLoses();
        RunResult full = new RunResult(sample.command(), sample.startedAt(), sample.finishedAt(),
                kr.c4i.gateway.scenarios.experiment.RunPlan.full(sample.plan().experiments(), sample.plan().transports()),
                sample.setup(), sample.repetitions(), java.util.List.of("dds given up: nodes did not start"));
        String md = MarkdownReport.render(full, Map.of());
        assertThat(md).contains("Full run: 15 repetitions per cell", "## Problems",
                "- dds given up: nodes did not start", "| **missed** |");
        assertThat(md).doesNotContain("Quick run");
    }

    @Test
    void everyRepetitionGoesToCsvAndTheWholeRunToJsonAndBack(@TempDir Path dir) throws Exception {
        RunResult run = SampleRuns.ddsWins();
        String report = ResultFiles.writeAll(run, dir);
        assertThat(report).contains("![Figure 9](figure9-loss.png)");
        String csv = Files.readString(dir.resolve(ResultFiles.CSV));
        assertThat(csv.lines().count()).isEqualTo(run.repetitions().size() + 1);
        assertThat(csv.lines().findFirst().orElseThrow())
                .startsWith("experiment,transport,cell,repetition,started_at,expected,delivered,response_ms");
        assertThat(csv).contains("recovery,dds,\"1:1\",1,2026-11-21T12:00:00Z,200,200,270,");
        RunResult back = ResultFiles.read(dir);
        assertThat(back).isEqualTo(run);
        assertThat(Files.readString(dir.resolve(ResultFiles.REPORT))).isEqualTo(report);
    }

    @Test
    void chartsAreWrittenAsPngAndSvg(@TempDir Path dir) throws Exception {
        Map<String, String> written = Charts.write(SampleRuns.ddsLoses(), dir);
        assertThat(written).containsOnlyKeys("7", "8", "8b", "9");
        for (String name : new String[] { "figure7-recovery", "figure8-bandwidth", "figure8b-wire-bytes",
                "figure9-loss" }) {
            byte[] png = Files.readAllBytes(dir.resolve(name + ".png"));
            assertThat(java.util.Arrays.copyOf(png, 4)).containsExactly((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
            assertThat(Files.readString(dir.resolve(name + ".svg"))).contains("<svg", "JMS (ours)", "</svg>");
        }
    }
}

package kr.c4i.gateway.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.net.EnvironmentCheck;
import kr.c4i.gateway.scenarios.report.ResultFiles;
import kr.c4i.gateway.tools.ExitCode;

/**
 * One quick repetition of each experiment, JMS and DDS (the wan experiment: its jms and norm links), with real nodes
 * (gateway-tools' executable jar) in real network namespaces: the quick mode CI runs. Needs root and the tools
 * {@link EnvironmentCheck} names; without them the test is skipped and says why, or fails under CI.
 */
class ScenariosIT {

    @Test
    void theQuickSetRunsEveryExperimentForBothTransports() throws Exception {
        List<String> problems = EnvironmentCheck.problems();
        Prerequisites.require(problems.isEmpty(), "root with ip, tc, ss, nft, ethtool, sysctl and curl for network "
                + "namespaces, qdiscs and nftables rules: " + String.join("; ", problems));
        Path output = Path.of("target", "scenarios-it");
        // Namespaces of its own for each run, so neither a scenario run nor this test running from another checkout on
        // the same machine (two CI runs at once) ever meets them.
        String prefix = "c4" + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36) + "-";
        CliDriver.Result r = CliDriver.run("run", "--quick", "--prefix", prefix, "--subnet", "10.78.0",
                "--output", output.toString());
        String report = Files.exists(output.resolve(ResultFiles.REPORT))
                ? Files.readString(output.resolve(ResultFiles.REPORT)) : "(no report)";
        String message = r + "\n--- report:\n" + report;
        System.out.println(report);

        // Targets are the transports' business; the harness must have run everything.
        assertThat(r.exitCode()).as(message).isIn(ExitCode.OK.code(), ExitCode.TARGET_MISSED.code());
        RunResult run = ResultFiles.read(output);
        // Saved after every repetition, then overwritten by the whole run (no "Incomplete" left).
        assertThat(run.problems()).as(message).isEmpty();
        assertThat(Files.readString(output.resolve("run.log"))).as(message)
                .contains("Saved the run so far (" + run.repetitions().size() + " repetitions) to results.json");
        for (String transport : List.of("jms", "dds")) {
            for (ExperimentKind kind : List.of(ExperimentKind.RECOVERY, ExperimentKind.FANOUT, ExperimentKind.LOSS)) {
                assertThat(run.repetitions()).as(message)
                        .anyMatch(rep -> rep.experiment().equals(kind.key()) && rep.transport().equals(transport));
            }
        }
        // The wan experiment's quick set: its smallest loss cell and its outage over the jms and the norm link, two
        // sites' gateways relaying with custody, so every message arrives, FLASH ones too. Each cell has its
        // deadline (60 s at 10% x 2 Mbit/s), so a stuck link fails the run in bounded time.
        List<RepetitionResult> wan = run.repetitions().stream()
                .filter(rep -> rep.experiment().equals(ExperimentKind.WAN.key())).toList();
        for (String link : List.of("jms", "norm")) {
            assertThat(wan).as(message).filteredOn(rep -> rep.transport().equals(link))
                    .extracting(RepetitionResult::cell)
                    .containsExactlyInAnyOrder("10% 2 Mbit/s", run.plan().wan().outageKey());
        }
        assertThat(wan).as(message).hasSize(4).allMatch(RepetitionResult::complete);
        assertThat(wan).as(message).filteredOn(rep -> rep.cell().equals("10% 2 Mbit/s"))
                .allMatch(rep -> rep.metric(Metrics.FLASH_DELIVERED).orElse(0) == run.plan().wan().flashMessages()
                        && rep.metric(Metrics.FLASH_P99_MS).isPresent());
        assertThat(wan).as(message).filteredOn(rep -> rep.cell().startsWith("outage"))
                .allMatch(rep -> rep.metric(Metrics.DRAIN_IN_ORDER).isPresent()
                        && rep.note().startsWith("drain order: "));
        // JMS is store-and-forward: everything arrives, also across the emergency stop and under loss.
        assertThat(run.repetitions()).as(message).filteredOn(rep -> rep.transport().equals("jms"))
                .allMatch(RepetitionResult::complete);
        for (String chart : List.of("figure7-recovery", "figure8-bandwidth", "figure9-loss")) {
            assertThat(output.resolve(chart + ".png")).as(message).exists();
            assertThat(output.resolve(chart + ".svg")).as(message).exists();
        }
        assertThat(output.resolve(ResultFiles.CSV)).as(message).exists();
        assertThat(report).as(message).contains("## Table 2", "## Table 3", "## Tables 4 and 5",
                "## WAN gateway: two sites over one impaired link", "Quick run");
    }
}

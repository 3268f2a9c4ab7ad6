package kr.c4i.gateway.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.WanVariant;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.report.ResultFiles;
import kr.c4i.gateway.tools.ExitCode;

class ScenariosCliTest {

    @Test
    void withoutASubcommandItOrientsAndListsTheExitCodes() {
        CliDriver.Result r = CliDriver.run();
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).contains("scenarios run --quick", "Commands:", "run", "report", "network",
                "Exit codes:", "3", "target missed", "4", "environment unsupported");
    }

    @Test
    void runHelpShowsTheOptionsAndTheExitCodes() {
        CliDriver.Result r = CliDriver.run("run", "--help");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).contains("--quick", "--experiments", "--transports", "--repetitions",
                "--plain", "--errors", "--verbose", "Exit codes:", "incomplete");
    }

    @Test
    void everyHelpFormatsWithoutWarnings() {
        // picocli reports a description it cannot format (a bare '%') on System.err, not on the command's err.
        PrintStream systemErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            helpOfEveryCommand(ScenariosCli.commandLine(), List.of());
        }
        finally {
            System.setErr(systemErr);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private static void helpOfEveryCommand(CommandLine command, List<String> path) {
        List<String> args = new ArrayList<>(path);
        args.add("--help");
        CliDriver.Result r = CliDriver.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out() + r.err()).as(r.toString()).doesNotContain("Could not format");
        command.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                List<String> subPath = new ArrayList<>(path);
                subPath.add(name);
                helpOfEveryCommand(sub, subPath);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            run --repetitions 0                    | Invalid value for option '--repetitions': 0 is out of range: use 1 to 1000
            run --recovery-messages -1             | Invalid value for option '--recovery-messages': -1 is out of range: use 1 to 1000000
            run --fanout-messages 0                | Invalid value for option '--fanout-messages': 0 is out of range: use 1 to 1000000
            run --loss-messages 0                  | Invalid value for option '--loss-messages': 0 is out of range: use 1 to 1000000
            run --subscribers 1,0                  | Invalid value for option '--subscribers' (N): 0 is out of range: use 1 to 5
            run --subscribers 6                    | Invalid value for option '--subscribers' (N): 6 is out of range: use 1 to 5
            run --queue-packets 0                  | Invalid value for option '--queue-packets': 0 is out of range: use 1 or more
            run --cell-timeout 0                   | Invalid value for option '--cell-timeout': 0 is out of range: use 1 or more
            run --node-start-timeout -5            | Invalid value for option '--node-start-timeout': -5 is out of range: use 1 or more
            run --dds-domain 233                   | Invalid value for option '--dds-domain': 233 is out of range: use 0 to 232
            run --arp-retry-ms 0                   | Invalid value for option '--arp-retry-ms': 0 is out of range: use 1 or more
            run --loss-cells 150%@2mbit            | '150%@2mbit' is not a loss cell
            run --loss-cells x%@2mbit              | 'x%@2mbit' is not a loss cell
            run --recovery-order sometime          | Invalid value for option '--recovery-order': 'sometime' is not a recovery order
            run --wan-delay 250                    | '250' is not a WAN delay; write e.g. 250ms, 1s or 0
            run --wan-delay 0,fast                 | 'fast' is not a WAN delay; write e.g. 250ms, 1s or 0
            run --wan-delay 11s                    | a WAN delay must be whole milliseconds from 0 to 10 s, was 11000 ms
            run --wan-variants mix,zstd            | 'zstd' is not a wan variant; use filler, mix, uncompressed or all
            run --wan-cell-seconds 601             | a wan cell's seconds of its bound must be 0 to 600, was 601
            network plan --loss 101                | Invalid value for option '--loss': 101 is out of range: use 0 to 100
            network plan --loss -1                 | Invalid value for option '--loss': -1 is out of range: use 0 to 100
            network plan --queue-packets 0         | Invalid value for option '--queue-packets': 0 is out of range: use 1 or more
            network up --loss 101                  | Invalid value for option '--loss': 101 is out of range: use 0 to 100
            """)
    void aBadOptionIsAUsageErrorInOneLine(String commandLine, String message) {
        CliDriver.Result r = CliDriver.validate(commandLine.split(" +"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        List<String> lines = r.err().lines().toList();
        assertThat(lines.getFirst()).as(r.toString()).contains(message);
        assertThat(lines.getLast()).as(r.toString()).matches("See 'scenarios [a-z ]+ --help'\\.");
        assertThat(r.err()).as(r.toString()).doesNotContain("Exception", "\tat ", "Usage:");
    }

    @Test
    void goodOptionsPassTheChecks() {
        CliDriver.Result r = CliDriver.validate("run", "--quick", "--repetitions", "3", "--subscribers", "1,5",
                "--loss-cells", "10%@128kbit,30%@2mbit", "--recovery-order", "lift-then-restart", "--dds-domain", "232",
                "--wan-delay", "0,250ms,1s", "--wan-variants", "all", "--plain");
        assertThat(r.exitCode()).as(r.toString()).isZero();
    }

    @Test
    void theWanCellsRunTodaysBodiesUnlessAskedAndAllIsTheThreeVariants() {
        assertThat(plan("run").wan().variants()).containsExactly(WanVariant.FILLER);
        assertThat(plan("run", "--wan-variants", "uncompressed,mix").wan().variants())
                .containsExactly(WanVariant.UNCOMPRESSED, WanVariant.MIX);
        assertThat(plan("run", "--wan-variants", "all").wan().variants()).containsExactly(WanVariant.FILLER,
                WanVariant.MIX, WanVariant.UNCOMPRESSED);
        assertThat(CliDriver.run("run", "--help").out()).contains("--wan-variants");
    }

    @Test
    void fastWanCellsCarryTenSecondsOfTheirBoundUnlessAsked() {
        LossCell fast = new LossCell(0.1, Rate.MBIT_2);
        assertThat(plan("run").wan().messagesIn(fast)).isEqualTo(11_250);
        assertThat(plan("run", "--wan-cell-seconds", "0").wan().messagesIn(fast)).isEqualTo(1_000);
        assertThat(plan("run", "--wan-cell-seconds", "2", "--wan-messages", "500").wan().messagesIn(fast))
                .isEqualTo(2_250);
        assertThat(plan("run", "--quick").wan().messagesIn(fast)).isEqualTo(200);
    }

    private static RunPlan plan(String... args) {
        CommandLine.ParseResult parsed = ScenariosCli.commandLine().parseArgs(args);
        return ((RunCommand) parsed.subcommand().commandSpec().userObject()).plan();
    }

    @Test
    void anUnknownExperimentIsAUsageError() {
        CliDriver.Result r = CliDriver.run("run", "--experiments", "latency");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).as(r.toString()).contains("'latency' is not an experiment; use recovery, fanout, loss or wan");
    }

    @Test
    void aMalformedLossCellIsAUsageError() {
        CliDriver.Result r = CliDriver.run("run", "--loss-cells", "10@2mbit");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).as(r.toString()).contains("write e.g. 10%@128kbit");
    }

    @Test
    void aMistypedOptionGetsASuggestion() {
        CliDriver.Result r = CliDriver.run("run", "--repetition", "3");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).as(r.toString()).contains("--repetitions");
    }

    @Test
    void thePlanIsPrintedWithoutRoot() {
        CliDriver.Result r = CliDriver.run("network", "plan", "--rate", "128kbit", "--loss", "10");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).contains("ip netns add c4g-sw",
                "ip netns exec c4g-h1 tc qdisc replace dev eth0 root tbf rate 128000bit burst 1600 limit 75700",
                "numgen random mod 1000 < 100 counter drop", "table bridge c4g_cut_h2", "ip netns del c4g-sw");
    }

    @Test
    void aReportIsRenderedAgainFromResultsJsonWithTheTargetExitCode(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(ResultFiles.JSON),
                ResultFiles.toJson(kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsLoses()));
        CliDriver.Result r = CliDriver.run("report", dir.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.TARGET_MISSED.code());
        assertThat(r.out()).as(r.toString()).contains("MISSED", "Recovery: DDS response time under 500 ms");
        assertThat(dir.resolve(ResultFiles.REPORT)).exists();
        assertThat(dir.resolve("figure8-bandwidth.svg")).exists();
    }

    @Test
    void aPublishedReportLinksItsCopiedCharts(@TempDir Path dir) throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.writeString(run.resolve(ResultFiles.JSON),
                ResultFiles.toJson(kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsWins()));
        Path docs = dir.resolve("docs/results.md");
        CliDriver.Result r = CliDriver.run("report", run.toString(), "--publish", docs.toString(),
                "--publish-figures", dir.resolve("module/docs/figures").toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(Files.readString(docs)).contains("![Figure 7](../module/docs/figures/figure7-recovery.png)");
        assertThat(dir.resolve("module/docs/figures/figure9-loss.png")).exists();
    }

    @Test
    void severalRunsArePublishedOnOnePageEachWithItsOwnChartsAndTheWorstExitCode(@TempDir Path dir) throws Exception {
        Path first = Files.createDirectories(dir.resolve("recovery-fanout"));
        Path second = Files.createDirectories(dir.resolve("loss"));
        Files.writeString(first.resolve(ResultFiles.JSON),
                ResultFiles.toJson(kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsWins()));
        Files.writeString(second.resolve(ResultFiles.JSON),
                ResultFiles.toJson(kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsLoses()));
        Path docs = dir.resolve("docs/results.md");

        CliDriver.Result r = CliDriver.run("report", first.toString(), second.toString(), "--publish", docs.toString(),
                "--publish-figures", dir.resolve("docs/figures").toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.TARGET_MISSED.code());
        String page = Files.readString(docs);
        assertThat(page).startsWith("# The study's experiments on an emulated network: JMS and DDS\n")
                .contains("from 2 runs", "\n## Run 1 of 2: `recovery-fanout`\n", "\n## Run 2 of 2: `loss`\n",
                        "![Figure 7](figures/recovery-fanout/figure7-recovery.png)",
                        "![Figure 7](figures/loss/figure7-recovery.png)", "\n### Table 2:")
                .doesNotContain("\n## Table 2:", "\n## The study's experiments");
        assertThat(page.indexOf("figures/recovery-fanout/")).isLessThan(page.indexOf("figures/loss/"));
        assertThat(dir.resolve("docs/figures/loss/results.json")).exists();
        assertThat(dir.resolve("docs/figures/recovery-fanout/results.json")).exists();
    }

    @Test
    void runsOfOnePlanArePooledIntoOneResultsFolder(@TempDir Path dir) throws Exception {
        for (String part : List.of("part1", "part2")) {
            Files.writeString(Files.createDirectories(dir.resolve(part)).resolve(ResultFiles.JSON),
                    ResultFiles.toJson(kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsWins()));
        }
        CliDriver.Result r = CliDriver.run("pool", dir.resolve("part1").toString(), dir.resolve("part2").toString(),
                "--output", dir.resolve("pooled").toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(ResultFiles.read(dir.resolve("pooled")).plan().repetitions()).isEqualTo(2
                * kr.c4i.gateway.scenarios.report.SampleRunsAccess.ddsWins().plan().repetitions());
        assertThat(Files.readString(dir.resolve("pooled").resolve(ResultFiles.REPORT))).contains("pooled from 2 runs");
    }
}

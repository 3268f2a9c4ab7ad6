package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.tools.ExitCode;

/** {@code gateway soak}: its options, and a run short enough for every build that samples and loses nothing. */
class SoakCommandTest {

    @TempDir
    Path results;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            soak --transport norm            | Invalid value for option '--transport': 'norm': use jms, dds or both
            soak --rate 0                    | Invalid value for option '--rate': 0 is out of range: use 1 or more
            soak --rate fast                 | Invalid value for option '--rate': 'fast' is not a whole number
            soak --duration 0s               | Invalid value for option '--duration': 0s is out of range: use a duration above 0
            soak --duration forever          | Invalid value for option '--duration': 'forever' is not a duration; write e.g. 90s, 5m or PT5M
            soak --sample-every -1m          | Invalid value for option '--sample-every': -1m is out of range: use a duration above 0
            soak --duration 1m               | --sample-every 1m leaves no sample after the baseline, due at 10s of a 1m run: sample more often or run longer
            soak --duration 30s --sample-every 1m | --sample-every 1m leaves no sample after the baseline, due at 5s of a 30s run
            soak --sample-every 2h           | --sample-every 2h leaves no sample after the baseline, due at 10m of a 1h run
            """)
    void aBadOptionIsAUsageErrorInOneLine(String commandLine, String message) {
        CliDriver.Result r = CliDriver.run(commandLine.split(" +"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        List<String> lines = r.err().lines().toList();
        assertThat(lines).as(r.toString()).hasSize(2);
        assertThat(lines.getFirst()).as(r.toString()).contains(message);
        assertThat(lines.getLast()).as(r.toString()).isEqualTo("See 'gateway soak --help'.");
        assertThat(r.out()).as(r.toString()).isEmpty();
    }

    @Test
    void theDefaultsAreAnHourAt500MessagesASecondOverBothTransportsSecured() {
        CommandLine cli = GatewayCli.commandLine();
        cli.parseArgs("soak");
        SoakCommand soak = cli.getSubcommands().get("soak").getCommand();
        assertThat(soak.transports).isEqualTo(SoakCommand.Transports.BOTH);
        assertThat(soak.transports.kinds()).extracting(kind -> kind.label()).containsExactly("jms", "dds");
        assertThat(soak.rate).isEqualTo(500);
        assertThat(soak.duration).isEqualTo(Duration.ofHours(1));
        assertThat(soak.sampleEvery).isEqualTo(Duration.ofMinutes(1));
        assertThat(soak.plain).isFalse();
        assertThat(soak.keepData).isFalse();
        assertThat(soak.outputDir).isNull();

        cli = GatewayCli.commandLine();
        cli.parseArgs("soak", "-t", "DDS", "-r", "200", "--duration", "3m", "--sample-every", "30s", "--plain",
                "--keep-data", "-o", "out");
        soak = cli.getSubcommands().get("soak").getCommand();
        assertThat(soak.transports.kinds()).extracting(kind -> kind.label()).containsExactly("dds");
        assertThat(soak.rate).isEqualTo(200);
        assertThat(soak.duration).isEqualTo(Duration.ofMinutes(3));
        assertThat(soak.sampleEvery).isEqualTo(Duration.ofSeconds(30));
        assertThat(soak.plain).isTrue();
        assertThat(soak.keepData).isTrue();
        assertThat(soak.outputDir).isEqualTo(Path.of("out"));
    }

    /**
     * Twenty seconds over JMS, secured: a sample at the start, every five seconds and at the end, each on disk, and
     * every message in node b's inbox exactly once. So short a run may well see its memory still growing (exit code
     * 3), so the verdict is only checked to be there.
     */
    @Test
    @Timeout(300)
    void aShortRunSamplesAndLosesNothing() throws Exception {
        CliDriver.Result r = CliDriver.run("soak", "--transport", "jms", "--duration", "20s", "--sample-every", "5s",
                "--rate", "200", "--output-dir", results.toString());

        assertThat(r.exitCode()).as(r.toString()).isIn(ExitCode.OK.code(), ExitCode.TARGET_MISSED.code());
        assertThat(r.out()).as(r.toString()).contains("Soak over jms: 2 nodes, secured, 200 msg/s",
                "load: 4,000 messages written of 4,000 planned", "growth from the sample at 5.0 s",
                "delivery: 4,000 messages written, every one in node b's inbox exactly once");
        List<String> csv = Files.readAllLines(results.resolve("jms.csv"));
        assertThat(csv).as("a header and samples at 0, 5, 10, 15 and 20 s").hasSize(6);
        assertThat(csv.getFirst()).startsWith("elapsed_s,time,jvm_rss_mb,heap_after_gc_mb,");
        assertThat(csv.getLast().split(",", -1)).as("every figure read at the end").noneMatch(String::isEmpty);

        JsonNode json = JsonMapper.builder().build().readTree(results.resolve("jms.json").toFile());
        assertThat(json.get("samples").size()).isEqualTo(5);
        assertThat(json.get("delivery").get("lossless").asBoolean()).isTrue();
        assertThat(json.get("delivery").get("inbox_rows").asLong()).isEqualTo(4_000);
        assertThat(json.get("verdict").get("judged").asBoolean()).isTrue();
        assertThat(Files.readString(results.resolve("jms.svg"))).startsWith("<svg ").contains("<polyline");
        assertThat(Files.readString(results.resolve("summary.txt"))).contains("verdict: ");
        assertThat(Thread.getAllStackTraces().keySet()).as("the load's thread is gone")
                .noneMatch(thread -> thread.getName().equals("soak-load"));
    }
}

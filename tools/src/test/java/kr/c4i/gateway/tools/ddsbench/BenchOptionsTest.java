package kr.c4i.gateway.tools.ddsbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.tools.ExitCode;

/** dds-bench's options as docs/benchmarks.md and bin/dds-bench write them; checked before anything runs. */
class BenchOptionsTest {

    private static BenchOptions parse(String... args) {
        CommandLine cli = BenchOptions.commandLine();
        cli.parseArgs(args);
        return cli.getCommand();
    }

    @Test
    void withoutOptionsTheDefaultsOfTheDocumentedRun() {
        BenchOptions options = parse();
        assertThat(options.mode()).isEqualTo("run");
        assertThat(options.duration()).isEqualTo(6);
        assertThat(options.warmup()).isEqualTo(2);
        assertThat(options.size()).isEqualTo(200);
        assertThat(options.domain()).isBetween(201, 232);
        assertThat(options.ddsperf()).isEqualTo("ddsperf");
        assertThat(options.load()).isEqualTo(27_000);
        assertThat(options.peerMaxBatch()).isEqualTo(DdsTransportSettings.DEFAULT_MAX_BATCH);
        assertThat(options.flushEvery()).isEqualTo(64);
        assertThat(options.heap()).containsExactly("-Xms64m", "-Xmx128m");
        assertThat(options.verbose()).isFalse();
        assertThat(options.phases()).containsExactly("topics", "throughput", "rtt", "extra");
        assertThat(options.log()).isNull();
    }

    @Test
    void theDocumentedCommandsParse() {
        BenchOptions part = parse("--log=/tmp/x.log", "--phases=rtt", "--duration=10", "--verbose");
        assertThat(part.phases()).containsExactly("rtt");
        assertThat(part.duration()).isEqualTo(10);
        assertThat(part.verbose()).isTrue();
        assertThat(part.log()).isEqualTo("/tmp/x.log");
        assertThat(parse("--heap=default").heap()).isEmpty();
        assertThat(parse("--heap=-Xmx256m").heap()).containsExactly("-Xmx256m");
        assertThat(parse("--flush-every=1024").flushEvery()).isEqualTo(1024);
        assertThat(parse("--phases=topics,extra").phases()).containsExactly("topics", "extra");
        assertThat(parse("--verbose=false").verbose()).isFalse();
    }

    @Test
    void theLastOfARepeatedOptionWinsAndAnEmptyLogIsNone() {
        assertThat(parse("--log=/tmp/a.log", "--log=").log()).isNull();
        assertThat(parse("--log=/tmp/a.log", "--log=/tmp/b.log").log()).isEqualTo("/tmp/b.log");
        assertThat(parse("--duration=3", "--duration=4").duration()).isEqualTo(4);
    }

    @Test
    void aChildGetsTheOptionsItNeedsBack() {
        BenchOptions run = parse("--size=512", "--domain=7", "--peer-max-batch=32", "--flush-every=1024");
        BenchOptions child = parse(run.toArgs("readers", "kmtf", 90).toArray(String[]::new));
        assertThat(child.mode()).isEqualTo("readers");
        assertThat(child.type()).isEqualTo("kmtf");
        assertThat(child.deadline()).isEqualTo(90);
        assertThat(child.size()).isEqualTo(512);
        assertThat(child.domain()).isEqualTo(7);
        assertThat(child.peerMaxBatch()).isEqualTo(32);
        assertThat(child.flushEvery()).isEqualTo(1024);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            --duration=0           | Invalid value for option '--duration': 0 is out of range: use 1 to 600
            --size=10              | Invalid value for option '--size': 10 is out of range: use 20 to 60000
            --domain=233           | Invalid value for option '--domain': 233 is out of range: use 0 to 232
            --flush-every=many     | Invalid value for option '--flush-every': 'many' is not a whole number
            --phases=rtt,speed     | Invalid value for option '--phases' (PHASE): 'speed' is not a phase
            --heap=128m            | Invalid value for option '--heap': '128m' is not a list of JVM options
            --mode=ping            | Invalid value for option '--mode': 'ping' is not a mode
            --durations=5          | Unknown option: '--durations=5'
            rtt                    | Unmatched argument at index 0: 'rtt'
            """)
    void aBadOptionIsAUsageErrorInOneLineAndNothingRuns(String arg, String message) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchOptions.commandLine().setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
        int code = cli.execute(arg);
        assertThat(code).as(err.toString()).isEqualTo(ExitCode.USAGE.code()).isEqualTo(2);
        List<String> lines = err.toString().lines().toList();
        assertThat(lines.getFirst()).contains(message);
        assertThat(lines.getLast()).isEqualTo("See 'dds-bench --help'.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void helpListsTheOptionsAndTheExitCodesFromTheTableWithoutPicocliWarnings() {
        StringWriter out = new StringWriter();
        CommandLine cli = BenchOptions.commandLine().setOut(new PrintWriter(out, true));
        // picocli reports a description it cannot format (a bare '%') on System.err, not on the command's err.
        PrintStream systemErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            assertThat(cli.execute("--help")).isZero();
        }
        finally {
            System.setErr(systemErr);
        }
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(out.toString()).contains("201 + pid % 32", "--duration", "--warmup", "--size", "--domain", "--ddsperf", "--load",
                "--peer-max-batch", "--flush-every", "--heap", "--phases", "--verbose", "--log", "Exit codes:",
                "  3   " + ExitCode.TARGET_MISSED.meaning()).doesNotContain("--mode", "--deadline", "--type");
    }
}

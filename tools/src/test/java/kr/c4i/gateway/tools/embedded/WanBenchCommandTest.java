package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import kr.c4i.gateway.tools.ExitCode;

/** {@code gateway wan-bench}: its options, and a run small enough for every build that prints every figure. */
class WanBenchCommandTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            wan-bench --messages 0            | Invalid value for option '--messages': 0 is out of range: use 1 or more
            wan-bench --latency-rate -1       | Invalid value for option '--latency-rate': -1 is out of range: use 1 or more
            wan-bench --backlog 0             | Invalid value for option '--backlog': 0 is out of range: use 1 or more
            wan-bench --flash 0=1500          | Invalid value for option '--flash'
            wan-bench --flash 256000=-1       | Invalid value for option '--flash'
            wan-bench --target-p99 0          | Invalid value for option '--target-p99': 0 is out of range: use a number above 0
            wan-bench --phases warp           | Invalid value for option '--phases'
            wan-bench --flash-interval x      | Invalid value for option '--flash-interval': 'x' is not a whole number
            wan-bench --lan norm              | Invalid value for option '--lan': 'norm': use jms or dds
            wan-bench --lan dds --feed own-broker | --feed own-broker needs --lan jms: a DDS LAN has no broker
            wan-bench --link dds --tx-loss 10 | --tx-loss needs --link norm: the dds link has no loss hook
            """)
    void aBadOptionIsAUsageErrorInOneLine(String commandLine, String message) {
        CliDriver.Result r = CliDriver.run(commandLine.split(" +"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err().lines().toList().getFirst()).as(r.toString()).contains(message);
        assertThat(r.err()).as(r.toString()).doesNotContain("Exception", "\tat ");
        assertThat(r.out()).as(r.toString()).isEmpty();
    }

    @Test
    void theHelpListsTheMeasurementsAndTheExitCodes() {
        CliDriver.Result r = CliDriver.run("wan-bench", "--help");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString()).contains("--phases", "--lan", "--link", "--flash", "--backlog",
                "--mix-messages",
                "THROUGHPUT", "BYTES", "Exit codes:", "target missed");
        assertThat(r.warnings()).as(r.toString()).isEmpty();
    }

    /**
     * Every phase on a few hundred messages, with targets any machine meets, so the exit code says the figures were
     * taken. The flash budget is tiny, so the small backlog still waits when the FLASH messages arrive.
     */
    @Test
    @Timeout(600)
    void aTinyRunPrintsEveryFigure() {
        CliDriver.Result r = CliDriver.run("wan-bench", "--warmup", "50", "--warmup-limit", "5s", "--messages", "300", "--latency-rate", "100",
                "--latency-seconds", "2", "--latency-settle-seconds", "1", "--flash", "8000=60000", "--backlog",
                "30000", "--flash-count", "2", "--flash-interval", "300", "--mix-messages", "100",
                "--target-throughput", "1", "--target-p99", "60000");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.OK.code());
        assertThat(r.out()).as(r.toString())
                .contains("command: gateway wan-bench --warmup 50", "load average at start:",
                        "sites: dds LANs, dds link, WAN frames sealed, custody logs, gateway 2's steps forwarded to "
                                + "gateway 1")
                .containsPattern("relay throughput +: \\d+ msg/s \\(300 of 300 messages of 200 bytes")
                .containsPattern("CPU of this JVM \\d+ us per message, [\\d.]+ s of it JIT compiling; the machine's "
                        + "\\d+ us \\(the stores' PostgreSQL included\\)")
                .containsPattern("added latency at 100 msg/s +: p50 [\\d.]+ ms, p99 [\\d.]+ ms, max [\\d.]+ ms over 200 of "
                        + "200 messages")
                .containsPattern("FLASH latency at 8000 bit/s +: p50 \\d+ ms, p99 \\d+ ms, max \\d+ ms over 2 of 2 FLASH "
                        + "messages; ROUTINE backlog at gateway 1 when the last arrived: [1-9]\\d* of \\d+ bytes")
                .containsPattern("WAN bytes per message, deflate\\S* *: [\\d.]+ bytes of DATA frames")
                .containsPattern("WAN bytes per message, none *: [\\d.]+ bytes of DATA frames")
                .contains("every target met");
    }

    /**
     * The same tiny run with JMS LANs (site brokers, JMS nodes a and c), the jms link and WAN frames in clear: every
     * phase's figures, every message sent arrived at node c.
     */
    @Test
    @Timeout(600)
    void aTinyRunOverJmsLansPrintsEveryFigure() {
        CliDriver.Result r = CliDriver.run("wan-bench", "--lan", "jms", "--link", "jms", "--plain", "--warmup", "50", "--warmup-limit", "5s",
                "--messages", "300", "--latency-rate", "100", "--latency-seconds", "2", "--latency-settle-seconds",
                "1", "--flash", "8000=60000", "--backlog", "30000", "--flash-count", "2", "--flash-interval", "300",
                "--mix-messages", "100", "--target-throughput", "1", "--target-p99", "60000");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCode.OK.code());
        assertThat(r.out()).as(r.toString())
                .contains("sites: jms LANs, jms link, WAN frames in clear (--plain), brokers in plain TCP")
                .containsPattern("relay throughput +: \\d+ msg/s \\(300 of 300 messages of 200 bytes")
                .containsPattern("added latency at 100 msg/s +: p50 [\\d.]+ ms, p99 [\\d.]+ ms, max [\\d.]+ ms over 200 of "
                        + "200 messages")
                .containsPattern("FLASH latency at 8000 bit/s +: p50 \\d+ ms, p99 \\d+ ms, max \\d+ ms over 2 of 2 FLASH "
                        + "messages; ROUTINE backlog at gateway 1 when the last arrived: [1-9]\\d* of \\d+ bytes")
                .containsPattern("WAN bytes per message, deflate\\S* *: [\\d.]+ bytes of DATA frames")
                .containsPattern("WAN bytes per message, none *: [\\d.]+ bytes of DATA frames")
                .contains("every target met");
    }
}

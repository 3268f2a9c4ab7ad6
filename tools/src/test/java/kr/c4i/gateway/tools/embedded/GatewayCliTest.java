package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import kr.c4i.gateway.tools.ExitCode;

/** Every command checks its options before it starts anything: a bad one is exit code 2 and one clear line. */
class GatewayCliTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            demo --nodes 0                     | Invalid value for option '--nodes': 0 is out of range: use 2 to 26
            demo --nodes 27                    | Invalid value for option '--nodes': 27 is out of range: use 2 to 26
            demo --nodes two                   | Invalid value for option '--nodes': 'two' is not a whole number
            demo --messages -5                 | Invalid value for option '--messages': -5 is out of range: use 1 or more
            demo --rate -1                     | Invalid value for option '--rate': -1 is out of range: use 0 or more
            demo --bad-every -1                | Invalid value for option '--bad-every': -1 is out of range: use 0 or more
            demo --size 10000000               | Invalid value for option '--size': 10000000 is out of range: use 0 (a realistic mix) to
            demo --timeout 0s                  | Invalid value for option '--timeout': 0s is out of range: use a duration above 0
            demo --timeout soon                | Invalid value for option '--timeout': 'soon' is not a duration; write e.g. 90s, 5m or PT5M
            demo --transport carrier-pigeon    | Invalid value for option '--transport'
            bench --latency-rate 0             | Invalid value for option '--latency-rate': 0 is out of range: use 1 or more
            bench --latency-seconds -3         | Invalid value for option '--latency-seconds': -3 is out of range: use 1 or more
            bench --messages 0                 | Invalid value for option '--messages': 0 is out of range: use 1 or more
            bench --warmup -1                  | Invalid value for option '--warmup': -1 is out of range: use 0 or more
            bench --size 0                     | Invalid value for option '--size': 0 is out of range: use 1 to
            bench --target-p99 0               | Invalid value for option '--target-p99': 0 is out of range: use a number above 0
            node --id Node.A --work-dir w      | Invalid value for option '--id': Invalid node id 'Node.A'
            node --id a --work-dir w --http-port 0     | Invalid value for option '--http-port': 0 is out of range: use 1 to 65535
            node --id a --work-dir w --pg-port 70000   | Invalid value for option '--pg-port': 70000 is out of range: use 0 to 65535
            node --id a --work-dir w -- gateway.x=1    | Bridge property 'gateway.x=1' must look like --key=value
            node --work-dir w                  | Missing required option: '--id=<id>'
            wan --site S1 --work-dir w         | Invalid value for option '--site': Invalid site id 'S1'
            wan --site s1 --work-dir w --http-port 0   | Invalid value for option '--http-port': 0 is out of range: use 1 to 65535
            wan --site s1 --work-dir w --pg-port -1    | Invalid value for option '--pg-port': -1 is out of range: use 0 to 65535
            wan --site s1 --work-dir w -- gateway.x=1  | Gateway property 'gateway.x=1' must look like --key=value
            wan --work-dir w                   | Missing required option: '--site=<site>'
            demo --node 3                      | Unknown options: '--node'
            """)
    void aBadOptionIsAUsageErrorInOneLine(String commandLine, String message) {
        CliDriver.Result r = CliDriver.run(commandLine.split(" +"));
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        List<String> lines = r.err().lines().toList();
        assertThat(lines.getFirst()).as(r.toString()).contains(message);
        assertThat(lines.getLast()).as(r.toString()).matches("See 'gateway (demo|bench|node|wan) --help'\\.");
        assertThat(r.err()).as(r.toString()).doesNotContain("Exception", "\tat ", "Usage:");
        assertThat(r.out()).as(r.toString()).isEmpty();
    }

    @Test
    void aPropertyANodeRefusesIsAUsageErrorInOneLine(@TempDir Path dir) {
        System.setProperty("gateway.outbox.batch-size", "-5");
        try {
            CliDriver.Result r = CliDriver.run("demo", "--messages", "1", "--plain", "--work-dir", dir.toString());
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
            assertThat(r.err().strip().lines().toList()).as(r.toString()).singleElement().asString().contains(
                    "Invalid gateway properties under 'gateway.outbox'",
                    "gateway.outbox.batch-size must be between 1 and 10000, was -5", "docs/configuration.md");
            assertThat(r.err() + r.warnings()).as(r.toString()).doesNotContain("Exception", "\tat ");
        }
        finally {
            System.clearProperty("gateway.outbox.batch-size");
        }
    }

    @Test
    void aMistypedOptionGetsASuggestion() {
        CliDriver.Result r = CliDriver.run("demo", "--message", "5");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(r.err()).as(r.toString()).contains("--messages");
    }

    @Test
    void goodOptionsParseToTheirValues() {
        CommandLine cli = GatewayCli.commandLine();
        cli.parseArgs("demo", "--nodes", "26", "--messages", "1", "--rate", "0", "--size", "0", "--timeout", "90s");
        DemoCommand demo = cli.getSubcommands().get("demo").getCommand();
        assertThat(demo.nodes).isEqualTo(26);
        assertThat(demo.messages).isEqualTo(1);
        assertThat(demo.rate).isZero();
        assertThat(demo.timeout).isEqualTo(Duration.ofSeconds(90));
        cli = GatewayCli.commandLine();
        cli.parseArgs("demo");
        assertThat(((DemoCommand) cli.getSubcommands().get("demo").getCommand()).timeout).isEqualTo(Duration.ofMinutes(5));
        cli = GatewayCli.commandLine();
        cli.parseArgs("node", "--id", "h1", "--work-dir", "w", "--", "--gateway.x=1", "--gateway.y=a=b");
        NodeCommand node = cli.getSubcommands().get("node").getCommand();
        assertThat(node.id).isEqualTo("h1");
        assertThat(node.bridgeArguments).containsExactly("--gateway.x=1", "--gateway.y=a=b");
        assertThat(node.databaseOptions.pgPort).isZero();
        assertThat(node.databaseOptions.pgSocketDir).isNull();
        cli = GatewayCli.commandLine();
        cli.parseArgs("wan", "--site", "s2", "--work-dir", "w", "--pg-port", "5433", "--pg-socket-dir", "s", "--",
                "--gateway.wan.link=dds");
        WanCommand wan = cli.getSubcommands().get("wan").getCommand();
        assertThat(wan.site).isEqualTo("s2");
        assertThat(wan.httpPort).isEqualTo(8091);
        assertThat(wan.databaseOptions.pgPort).isEqualTo(5433);
        assertThat(wan.databaseOptions.pgSocketDir).isEqualTo(Path.of("s"));
        assertThat(wan.gatewayArguments).containsExactly("--gateway.wan.link=dds");
    }

    @Test
    void everyHelpPrintsWithoutPicocliWarnings() {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of());
        GatewayCli.commandLine().getSubcommands().keySet().stream().filter(name -> !name.equals("help"))
                .forEach(name -> commands.add(List.of(name)));
        for (List<String> command : commands) {
            List<String> args = new ArrayList<>(command);
            args.add("--help");
            CliDriver.Result r = CliDriver.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).as(r.toString()).contains("Usage:");
            assertThat(r.warnings() + r.err()).as(r.toString()).isEmpty();
        }
    }

    @Test
    void everyHelpListsTheExitCodesFromTheTable() {
        for (String command : List.of("demo", "bench", "soak", "node", "wan")) {
            CliDriver.Result r = CliDriver.run(command, "--help");
            assertThat(r.out()).as(r.toString()).contains("Exit codes:", "  0   " + ExitCode.OK.meaning(),
                    "  2   " + ExitCode.USAGE.meaning(), "  3   " + ExitCode.TARGET_MISSED.meaning(),
                    "  4   " + ExitCode.ENVIRONMENT_UNSUPPORTED.meaning());
        }
    }
}

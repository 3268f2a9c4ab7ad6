package kr.c4i.gateway.tools.embedded;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.MissingLibrary;
import kr.c4i.gateway.tools.UsageError;
import kr.c4i.gateway.tools.pki.PkiCommand;
import kr.c4i.gateway.tools.trace.TraceCommand;
import kr.c4i.gateway.tools.wanbench.WanBenchCommand;

/**
 * The embedded default's command line: {@code demo} shows the gateway at work on one machine,
 * {@code bench} measures it, {@code soak} watches it for leaks; {@code trace} says where a message is. Only
 * {@link #main} exits; commands return exit codes.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true, version = "c4i-gateway 0.1.0",
        header = "C4I messaging gateway on embedded defaults.",
        description = "Starts gateway nodes on this machine, each with its own embedded PostgreSQL and bridge, "
                + "and moves synthetic KMTF messages between them.",
        subcommands = { DemoCommand.class, BenchCommand.class, SoakCommand.class, NodeCommand.class,
                WanCommand.class, WanBenchCommand.class, WanBytesCommand.class, KmtfBenchCommand.class, PkiCommand.class,
                TraceCommand.class, CommandLine.HelpCommand.class })
public final class GatewayCli implements Runnable {

    @CommandLine.Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // Until each node's Spring context configures logging, libraries would log to the console over the progress bar.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line: enums case-insensitive, a usage error in one line, a property a node refused in
     * one line, a missing native library (Cyclone DDS, NORM) in one line, work data cleaned up, the exit codes in
     * every help.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new GatewayCli()).setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(new UsageError())
                .setExecutionExceptionHandler(new InvalidProperties())
                .setExecutionStrategy(GatewayCli::runAndCleanUp);
        ExitCode.listIn(cli, ExitCode.OK, ExitCode.SOFTWARE, ExitCode.USAGE, ExitCode.TARGET_MISSED,
                ExitCode.ENVIRONMENT_UNSUPPORTED);
        // trace starts nothing: it answers, or says which database it could not read.
        ExitCode.listIn(cli.getSubcommands().get("trace"), ExitCode.OK, ExitCode.SOFTWARE, ExitCode.USAGE,
                ExitCode.INCOMPLETE);
        return cli;
    }

    /** Runs the command, then removes the work data it asked to have removed (see {@link ClusterOptions}). */
    private static int runAndCleanUp(ParseResult parseResult) {
        ParseResult last = parseResult;
        while (last.subcommand() != null) {
            last = last.subcommand();
        }
        ClusterOptions cluster = last.commandSpec().mixins().values().stream()
                .map(CommandSpec::userObject).filter(ClusterOptions.class::isInstance).map(ClusterOptions.class::cast)
                .findFirst().orElse(null);
        int exitCode = ExitCode.SOFTWARE.code();
        try {
            exitCode = new CommandLine.RunLast().execute(parseResult);
            return exitCode;
        }
        catch (CommandLine.ExecutionException ex) {
            if (MissingLibrary.in(ex).isPresent()) {
                exitCode = ExitCode.ENVIRONMENT_UNSUPPORTED.code();
            }
            else if (InvalidProperties.in(ex).isPresent()) {
                exitCode = ExitCode.USAGE.code();
            }
            throw ex;
        }
        finally {
            if (cluster != null) {
                cluster.cleanUp(exitCode, last.commandSpec().commandLine().getOut());
            }
        }
    }

    @Override
    public void run() {
        spec.commandLine().getOut().println("Try 'gateway demo' to see two nodes exchange KMTF messages.");
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}

package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.UsageError;

/**
 * {@code scenarios}: the study's experiments on an emulated network, for JMS and DDS in one run. Only
 * {@link #main} exits the JVM; commands return exit codes ({@link ExitCode}).
 */
@Command(name = "scenarios", mixinStandardHelpOptions = true, version = "scenarios 0.1.0",
        header = "Run the study's experiments (recovery, 1:N bandwidth, loss) for JMS and DDS on an emulated network.",
        description = { "Builds six hosts in network namespaces on one emulated switch, starts real gateway nodes in "
                + "them, impairs the links, runs the experiments of Lee and Ko (2020) for JMS and DDS in the same run, "
                + "and writes a report, CSV, JSON and charts beside the study's numbers. Needs root.", "" },
        subcommands = { RunCommand.class, ReportCommand.class, PoolCommand.class, NetworkCommand.class,
                HelpCommand.class })
public final class ScenariosCli implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Run everything (as root):          scenarios run");
        out.println("A quick smoke run:                 scenarios run --quick");
        out.println("Render a report again:             scenarios report <results-folder>");
        out.println("Build the network by hand:         scenarios network up | down | plan");
        out.println();
        spec.commandLine().usage(out);
        return ExitCode.OK.code();
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The configured command line: enums case-insensitive, readable errors, the exit-code table in every help. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ScenariosCli());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler(ScenariosCli::handleExecutionException);
        cli.setParameterExceptionHandler(new UsageError());
        cli.setExitCodeExceptionMapper(ex -> switch (ex) {
            case EnvironmentUnsupportedException e -> ExitCode.ENVIRONMENT_UNSUPPORTED.code();
            case CommandLine.ParameterException e -> ExitCode.USAGE.code();
            default -> ExitCode.SOFTWARE.code();
        });
        ExitCode.listIn(cli, ExitCode.values());
        return cli;
    }

    private static int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult)
            throws Exception {
        if (ex instanceof CommandLine.ParameterException invalid) {
            // a value only the command could judge (an unknown experiment, a bad loss cell): still a usage error
            return command.getParameterExceptionHandler().handleParseException(invalid,
                    parseResult.originalArgs().toArray(String[]::new));
        }
        PrintWriter err = command.getErr();
        if (wantsStackTrace(parseResult)) {
            ex.printStackTrace(err);
        }
        else {
            err.println(command.getColorScheme().errorText(ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            err.println("Run with --errors for the stack trace.");
        }
        err.flush();
        return command.getExitCodeExceptionMapper().getExitCode(ex);
    }

    private static boolean wantsStackTrace(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--errors")) {
                return true;
            }
        }
        return false;
    }
}

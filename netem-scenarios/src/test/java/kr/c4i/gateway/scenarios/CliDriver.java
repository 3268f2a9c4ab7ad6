package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import kr.c4i.gateway.tools.ExitCode;

/** Runs the CLI in-process; the result's text is the assertion message. */
final class CliDriver {

    /**
     * What a command did.
     *
     * @param exitCode its exit code
     * @param out what it wrote to standard output
     * @param err what it wrote to standard error
     */
    record Result(int exitCode, String out, String err) {

        @Override
        public String toString() {
            return "exit code " + exitCode + "\n--- out:\n" + out + "\n--- err:\n" + err;
        }
    }

    private CliDriver() {
    }

    static Result run(String... args) {
        return execute(ScenariosCli.commandLine(), args);
    }

    /**
     * Parses the arguments and checks them as far as a command does before it builds anything ('run' makes its
     * plan), then stops: whatever the arguments, nothing is built or started.
     */
    static Result validate(String... args) {
        CommandLine cli = ScenariosCli.commandLine();
        cli.setExecutionStrategy(parseResult -> {
            ParseResult last = parseResult;
            while (last.subcommand() != null) {
                last = last.subcommand();
            }
            if (last.commandSpec().userObject() instanceof RunCommand run) {
                run.plan();
            }
            return ExitCode.OK.code();
        });
        return execute(cli, args);
    }

    private static Result execute(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}

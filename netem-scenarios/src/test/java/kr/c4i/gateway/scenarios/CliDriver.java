package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

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
        CommandLine cli = ScenariosCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}

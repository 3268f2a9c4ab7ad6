package kr.c4i.gateway.tools.embedded;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import picocli.CommandLine;

/** Runs the gateway's command line in-process; the result's text is the assertion message. */
final class CliDriver {

    /**
     * What a command did.
     *
     * @param exitCode its exit code
     * @param out what it wrote to standard output
     * @param err what it wrote to standard error
     * @param warnings what picocli itself reported on System.err (e.g. a description it could not format)
     */
    record Result(int exitCode, String out, String err, String warnings) {

        @Override
        public String toString() {
            return "exit code " + exitCode + "\n--- out:\n" + out + "\n--- err:\n" + err + "\n--- System.err:\n"
                    + warnings;
        }
    }

    private CliDriver() {
    }

    static Result run(String... args) {
        CommandLine cli = GatewayCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        PrintStream systemErr = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            int code = cli.execute(args);
            return new Result(code, out.toString(), err.toString(), warnings.toString(StandardCharsets.UTF_8));
        }
        finally {
            System.setErr(systemErr);
        }
    }
}

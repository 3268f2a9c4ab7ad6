package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;

import picocli.CommandLine.Option;

import kr.c4i.gateway.scenarios.net.Shell;

/** Output options every command shares. */
public final class OutputOptions {

    @Option(names = { "-v", "--verbose" }, description = "Print every command run and every measurement.")
    boolean verbose;

    @Option(names = { "-e", "--errors" }, description = "Print stack traces of errors.")
    boolean errors;

    public boolean verbose() {
        return verbose;
    }

    public boolean errors() {
        return errors;
    }

    /** A shell that echoes every command it runs to {@code out} when verbose. */
    Shell shell(PrintWriter out) {
        return new Shell(line -> {
            if (verbose) {
                out.println("$ " + line);
                out.flush();
            }
        });
    }
}

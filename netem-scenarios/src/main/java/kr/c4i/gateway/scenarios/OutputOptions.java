package kr.c4i.gateway.scenarios;

import picocli.CommandLine.Option;

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
}

package kr.c4i.gateway.scenarios;

import picocli.CommandLine.ExitCode;

/** The exit codes of {@code scenarios}: picocli's 0, 1 and 2, and the harness's own. */
public final class ExitCodes {

    /** Everything ran and every target measured was met. */
    public static final int OK = ExitCode.OK;
    /** A software error: see the message, and run with --errors for the stack trace. */
    public static final int SOFTWARE = ExitCode.SOFTWARE;
    /** Invalid input: an unknown option or a bad value. */
    public static final int USAGE = ExitCode.USAGE;
    /** Everything ran, and at least one target was missed (the report says which). */
    public static final int TARGET_MISSED = 3;
    /** This machine cannot run the harness: not root, or a tool is missing. */
    public static final int ENVIRONMENT_UNSUPPORTED = 4;
    /** Something could not run (nodes that did not start, failed repetitions): the report lists it. */
    public static final int INCOMPLETE = 5;

    /** The help footer's list. */
    static final String[] LIST = { "0:everything ran; every target measured was met",
            "1:software error (--errors shows the stack trace)", "2:invalid input", "3:target missed (see the report)",
            "4:environment unsupported (not root, or ip/tc/nft/ethtool missing)",
            "5:incomplete: something could not run (see the report)" };

    private ExitCodes() {
    }
}

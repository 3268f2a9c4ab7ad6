package kr.c4i.gateway.tools;

import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine;

/**
 * The exit codes of every command-line tool of the project ({@code gateway}, {@code dds-bench}, {@code scenarios}):
 * picocli's 0, 1 and 2, then the tools' own. Each tool lists in its help the ones it can return, from here.
 */
public enum ExitCode {

    /** Everything ran and every target measured was met. */
    OK(CommandLine.ExitCode.OK, "everything ran; every target measured was met"),
    /** A software error: the message says what failed. */
    SOFTWARE(CommandLine.ExitCode.SOFTWARE, "software error"),
    /** Invalid input: an unknown option or a bad value. */
    USAGE(CommandLine.ExitCode.USAGE, "invalid input: an unknown option or a bad value"),
    /** Everything ran, and at least one target was missed (the output says which). */
    TARGET_MISSED(3, "target missed (see the output or report)"),
    /** This machine cannot run the tool: not root, or a program it needs is missing. */
    ENVIRONMENT_UNSUPPORTED(4, "environment unsupported (not root, or a program it needs is missing)"),
    /** Something could not run (nodes that did not start, failed repetitions): the report lists it. */
    INCOMPLETE(5, "incomplete: something could not run (see the report)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The process exit status. */
    public int code() {
        return this.code;
    }

    /** What the code means, as the help lists it. */
    public String meaning() {
        return this.meaning;
    }

    /** Lists {@code codes} under "Exit codes:" in the help of {@code cli} and each of its subcommands. */
    public static void listIn(CommandLine cli, ExitCode... codes) {
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode code : codes) {
            list.put("  " + code.code, code.meaning);
        }
        describe(cli, list);
    }

    private static void describe(CommandLine cli, Map<String, String> list) {
        cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(list);
        cli.getSubcommands().values().forEach(sub -> describe(sub, list));
    }
}

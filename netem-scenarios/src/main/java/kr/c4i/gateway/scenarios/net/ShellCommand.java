package kr.c4i.gateway.scenarios.net;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One command line the harness runs, built by a pure function so that tests can read it without root.
 *
 * @param argv program and arguments, no shell involved
 * @param stdin text fed to the program's standard input (an nftables script), or null
 * @param mayFail true when a failure is expected and harmless (deleting what may not exist)
 * @param secretStdin true when the stdin holds a credential: {@link #display} (the verbose output, error messages)
 *        leaves it out
 */
public record ShellCommand(List<String> argv, @Nullable String stdin, boolean mayFail, boolean secretStdin) {

    public ShellCommand {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv must not be empty");
        }
    }

    public ShellCommand(List<String> argv, @Nullable String stdin, boolean mayFail) {
        this(argv, stdin, mayFail, false);
    }

    public static ShellCommand of(String... argv) {
        return new ShellCommand(List.of(argv), null, false);
    }

    /** The same command, allowed to fail. */
    public ShellCommand tolerant() {
        return new ShellCommand(argv, stdin, true, secretStdin);
    }

    public ShellCommand withStdin(String text) {
        return new ShellCommand(argv, text, mayFail, false);
    }

    /** The same command fed a credential on its standard input, which {@link #display} does not show. */
    public ShellCommand withSecretStdin(String text) {
        return new ShellCommand(argv, text, mayFail, true);
    }

    /** The command as a person would type it (the stdin script, if any, as a here-document; a secret one not). */
    public String display() {
        String line = String.join(" ", argv.stream().map(ShellCommand::quote).toList());
        if (stdin != null && secretStdin) {
            line += " < (a credential, not shown)";
        }
        else if (stdin != null) {
            line += " <<'EOF'\n" + stdin + (stdin.endsWith("\n") ? "" : "\n") + "EOF";
        }
        return mayFail ? line + " || true" : line;
    }

    private static String quote(String word) {
        return word.matches("[A-Za-z0-9_./:=,%+@-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    @Override
    public String toString() {
        return display();
    }
}

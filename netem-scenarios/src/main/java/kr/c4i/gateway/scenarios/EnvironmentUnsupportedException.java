package kr.c4i.gateway.scenarios;

import java.util.List;

import kr.c4i.gateway.scenarios.net.EnvironmentCheck;

/** The machine cannot run the harness; the message lists every reason and what to do. */
final class EnvironmentUnsupportedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    EnvironmentUnsupportedException(List<String> problems) {
        super("This machine cannot run the emulated network:\n  - " + String.join("\n  - ", problems));
    }

    /** Throws, naming every problem, unless this machine can build the emulated network. */
    static void requireSupported() {
        List<String> problems = EnvironmentCheck.problems();
        if (!problems.isEmpty()) {
            throw new EnvironmentUnsupportedException(problems);
        }
    }
}

package kr.c4i.gateway.dds;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (a tool, a header): without it the test is skipped and says why, but under CI
 * ({@code CI=true}) it fails instead, so a CI machine that lacks a package cannot pass by running fewer tests.
 * netem-scenarios' tests have the same class: the two modules share no test code.
 */
public final class Prerequisites {

    private static final boolean CI = "true".equalsIgnoreCase(System.getenv("CI"));

    private Prerequisites() {
    }

    /**
     * Skips the test unless {@code present}, or fails it under CI.
     *
     * @param missing one line naming what is missing and its Debian package, e.g.
     *     {@code "gcc (apt-get install gcc)"}
     */
    public static void require(boolean present, String missing) {
        require(present, missing, CI);
    }

    static void require(boolean present, String missing, boolean ci) {
        if (present) {
            return;
        }
        if (ci) {
            Assertions.fail("Missing under CI, where no test may skip: " + missing);
        }
        Assumptions.abort("Missing: " + missing);
    }

    /** Whether {@code program} is an executable file in a directory of {@code PATH}. */
    public static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}

package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that dies of SIGSEGV with its core dump in its working directory, as a node that crashes in a Cyclone
 * thread does: its failure names the signal and quotes the crashing thread's frames, read by a real gdb.
 */
class NodeCrashTest {

    @TempDir
    Path dir;

    @Test
    void aProcessKilledBySigsegvIsReportedWithItsCrashingThreadsFrames() throws Exception {
        Process shell = new ProcessBuilder("/bin/sh", "-c", "ulimit -c unlimited 2>/dev/null; exec \"$@\"", "sh",
                "/bin/sh", "-c", "kill -SEGV $$").directory(dir.toFile()).start();
        assertThat(shell.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(shell.exitValue()).isEqualTo(139);

        assertThat(NodeCrash.describe("node a", shell.exitValue()))
                .isEqualTo("node a exited with 139 (killed by SIGSEGV)");
        String report = NodeCrash.report(shell.exitValue(), dir, Path.of("/bin/sh"));
        String pattern = Files.readString(Path.of("/proc/sys/kernel/core_pattern")).strip();
        if (pattern.startsWith("|") || pattern.contains("/")) {
            // The kernel hands cores elsewhere on this machine: the report says where to look instead.
            assertThat(report).contains("No core dump in " + dir).contains(pattern);
        }
        else {
            assertThat(report).contains("The crashing thread in the core dump")
                    .contains("Program terminated with signal SIGSEGV").containsPattern("#0 .* in .*kill");
        }
    }

    @Test
    void anExitOfItsOwnOrByTheTestsKillIsNoCrash() {
        assertThat(NodeCrash.describe("gateway of s1", 1)).isEqualTo("gateway of s1 exited with 1");
        assertThat(NodeCrash.describe("node b", 137)).isEqualTo("node b exited with 137 (killed by SIGKILL)");
        assertThat(NodeCrash.report(137, dir, Path.of("/bin/sh"))).isEmpty();
        assertThat(NodeCrash.report(1, dir, Path.of("/bin/sh"))).isEmpty();
    }
}

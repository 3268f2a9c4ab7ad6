package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.tools.ExitCode;

/** A run's data under runs/ goes away after a successful run unless kept; the user's --work-dir always stays. */
class ClusterOptionsTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();

    @Test
    void aSuccessfulRunRemovesItsDataAndTheEmptyRunsFolder() throws Exception {
        ClusterOptions options = new ClusterOptions();
        Path work = options.workDir(dir.resolve("runs"), "demo");
        Files.writeString(Files.createDirectories(work.resolve("a/postgres")).resolve("data"), "x");

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(dir.resolve("runs")).doesNotExist();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void keptDataIsSaidWhere() throws Exception {
        ClusterOptions options = new ClusterOptions();
        options.keepData = true;
        Path work = options.workDir(dir.resolve("runs"), "demo");

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(work).isDirectory();
        assertThat(out.toString()).isEqualTo("Data and log kept in " + work + System.lineSeparator());
    }

    @Test
    void aFailedRunKeepsItsDataForItsLog() throws Exception {
        ClusterOptions options = new ClusterOptions();
        Path work = options.workDir(dir.resolve("runs"), "bench");

        options.cleanUp(ExitCode.TARGET_MISSED.code(), new PrintWriter(out, true));

        assertThat(work).isDirectory();
        assertThat(out.toString()).contains("kept in " + work, "did not succeed");
    }

    @Test
    void aWorkDirTheUserNamedStays() throws Exception {
        ClusterOptions options = new ClusterOptions();
        options.workDir = dir.resolve("mine");
        Path work = options.workDir(dir.resolve("runs"), "demo");

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(work).isEqualTo(dir.resolve("mine").toAbsolutePath()).isDirectory();
    }
}

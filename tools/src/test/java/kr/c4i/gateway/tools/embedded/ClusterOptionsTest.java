package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import kr.c4i.gateway.tools.ExitCode;

/**
 * A run's data under runs/ go away at the end unless kept (a failed demo keeps them for its log, a bench does not);
 * the user's --work-dir always stays.
 */
class ClusterOptionsTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 25, 7, 48, 53);

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();

    @Test
    void aSuccessfulRunRemovesItsDataAndTheEmptyRunsFolder() throws Exception {
        ClusterOptions options = new ClusterOptions();
        Path work = options.workDir(dir.resolve("runs"), "demo", NOW);
        Files.writeString(Files.createDirectories(work.resolve("a/postgres")).resolve("data"), "x");

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(dir.resolve("runs")).doesNotExist();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void keptDataIsSaidWhere() throws Exception {
        ClusterOptions options = new ClusterOptions();
        options.keepData = true;
        Path work = options.workDir(dir.resolve("runs"), "demo", NOW);

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(work).isDirectory();
        assertThat(out.toString()).isEqualTo("Data and log kept in " + work + System.lineSeparator());
    }

    @Test
    void aFailedDemoKeepsItsDataForItsLog() throws Exception {
        ClusterOptions options = new ClusterOptions();
        Path work = options.workDir(dir.resolve("runs"), "demo", NOW);

        options.cleanUp(ExitCode.TARGET_MISSED.code(), new PrintWriter(out, true));

        assertThat(work).isDirectory();
        assertThat(out.toString()).contains("kept in " + work, "did not succeed");
    }

    @Test
    void aWorkDirTheUserNamedStays() throws Exception {
        ClusterOptions options = new ClusterOptions();
        options.workDir = dir.resolve("mine");
        Path work = options.workDir(dir.resolve("runs"), "demo", NOW);

        options.cleanUp(0, new PrintWriter(out, true));

        assertThat(work).isEqualTo(dir.resolve("mine").toAbsolutePath()).isDirectory();
    }

    @Test
    void twoRunsStartedInTheSameSecondGetTwoFolders() throws Exception {
        Path first = new ClusterOptions().workDir(dir.resolve("runs"), "demo", NOW);
        Path second = new ClusterOptions().workDir(dir.resolve("runs"), "demo", NOW);
        Path third = new ClusterOptions().workDir(dir.resolve("runs"), "demo", NOW);

        assertThat(first).isDirectory().hasFileName("demo-20261125-074853");
        assertThat(second).isDirectory().hasFileName("demo-20261125-074853-2");
        assertThat(third).isDirectory().hasFileName("demo-20261125-074853-3");
    }

    @Test
    void aFolderThatCannotBeMadeIsOneLineSayingWhy() throws Exception {
        ClusterOptions options = new ClusterOptions();
        options.workDir = Files.writeString(dir.resolve("a-file"), "x").resolve("work");
        StringWriter err = new StringWriter();

        Optional<Path> work = options.workDir("demo", new PrintWriter(err, true));

        assertThat(work).isEmpty();
        assertThat(err.toString().lines().toList()).singleElement().asString()
                .isEqualTo("Unable to create a work directory in " + options.workDir.toAbsolutePath() + ": "
                        + options.workDir.toAbsolutePath() + ": Not a directory");
    }

    @Test
    void noFreeNameIsAnErrorNotALoop() throws Exception {
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Files.createDirectory(runs.resolve("bench-x"));
        for (int suffix = 2; suffix <= ClusterOptions.MAX_ATTEMPTS; suffix++) {
            Files.createDirectory(runs.resolve("bench-x-" + suffix));
        }

        assertThat(catchThrowable(() -> ClusterOptions.createUnique(runs, "bench-x"))).isInstanceOf(IOException.class)
                .hasMessageContaining("no free name");
    }

    @ParameterizedTest(name = "exit {0}, --keep-data {1}, failed runs kept {2}: kept {3}")
    @CsvSource(textBlock = """
            0, false, true,  false
            0, true,  true,  true
            3, false, true,  true
            1, false, true,  true
            4, false, true,  false
            4, true,  true,  true
            0, false, false, false
            3, false, false, false
            1, false, false, false
            3, true,  false, true
            1, true,  false, true
            """)
    void whetherARunsDataStay(int exitCode, boolean keepData, boolean keepsFailedRuns, boolean kept) {
        assertThat(ClusterOptions.keeps(exitCode, keepData, keepsFailedRuns)).isEqualTo(kept);
    }

    @Test
    void aBenchThatMissedItsTargetRemovesItsData() throws Exception {
        ClusterOptions options = ClusterOptions.removedWhateverTheOutcome();
        Path work = options.workDir(dir.resolve("runs"), "bench", NOW);
        Files.writeString(Files.createDirectories(work.resolve("a/postgres")).resolve("data"), "x");

        options.cleanUp(ExitCode.TARGET_MISSED.code(), new PrintWriter(out, true));

        assertThat(dir.resolve("runs")).doesNotExist();
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aBenchAskedToKeepItsDataKeepsThemAndSaysWhereInOneLine() throws Exception {
        ClusterOptions options = ClusterOptions.removedWhateverTheOutcome();
        options.keepData = true;
        Path work = options.workDir(dir.resolve("runs"), "bench", NOW);

        options.cleanUp(ExitCode.TARGET_MISSED.code(), new PrintWriter(out, true));

        assertThat(work).isDirectory();
        assertThat(out.toString()).isEqualTo("Data and log kept in " + work + System.lineSeparator());
    }

    @Test
    void theBenchRemovesItsDataWhateverTheOutcomeAndTheDemoKeepsAFailedRuns() {
        CommandLine cli = GatewayCli.commandLine();
        cli.parseArgs("bench");
        assertThat(((BenchCommand) cli.getSubcommands().get("bench").getCommand()).cluster.keepsFailedRuns).isFalse();
        cli = GatewayCli.commandLine();
        cli.parseArgs("bench", "--keep-data");
        ClusterOptions bench = ((BenchCommand) cli.getSubcommands().get("bench").getCommand()).cluster;
        assertThat(bench.keepData).isTrue();
        assertThat(bench.keepsFailedRuns).isFalse();
        cli = GatewayCli.commandLine();
        cli.parseArgs("demo");
        assertThat(((DemoCommand) cli.getSubcommands().get("demo").getCommand()).cluster.keepsFailedRuns).isTrue();
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;
import picocli.CommandLine.Option;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.tools.ExitCode;

/**
 * Options every embedded-default command shares. A run's databases and broker journals (tens of MB) go
 * to a fresh folder under {@code runs/} that is removed at the end unless asked to keep it ({@code --keep-data}).
 * The demo keeps a failed run's folder too, for the log its summary points at; the bench, whose output says all,
 * removes it whatever the outcome ({@link #removedWhateverTheOutcome}). A run stopped by a missing native library
 * keeps nothing: its one line says all. A folder named with {@code --work-dir} is the user's and is kept.
 * Runs started in the same second get folders of their own: {@code demo-<time>}, {@code demo-<time>-2}, ...
 */
final class ClusterOptions {

    /** Folders tried for one command and second ({@code -2}, {@code -3}, ...) before giving up. */
    static final int MAX_ATTEMPTS = 100;

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Option(names = { "-t", "--transport" }, defaultValue = "jms",
            description = "Transport between the nodes: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    TransportKind transport;

    @Option(names = "--work-dir", description = "Where databases, broker journals and the log go, kept after the run "
            + "(default: runs/<command>-<timestamp>, removed at the end; the demo keeps a failed run's).")
    @Nullable Path workDir;

    @Option(names = "--plain", description = "Security off: brokers in plain TCP and DDS without DDS Security "
            + "(to measure what security costs). By default each run makes a site PKI of its own in the work "
            + "directory and the nodes use it.")
    boolean plain;

    @Option(names = "--keep-data", description = "Keep the databases, broker journals and log under runs/ at the "
            + "end, whatever the outcome, and say where.")
    boolean keepData;

    /** Whether a failed run's folder stays for its log without --keep-data. */
    final boolean keepsFailedRuns;

    /** The folder this run created and removes at the end; null when there is none or it is to be kept. */
    private @Nullable Path created;

    /** The demo's options: a failed run keeps its folder, for the log its summary points at. */
    ClusterOptions() {
        this(true);
    }

    private ClusterOptions(boolean keepsFailedRuns) {
        this.keepsFailedRuns = keepsFailedRuns;
    }

    /** The bench's options: the folder goes at the end whatever the outcome, unless --keep-data. */
    static ClusterOptions removedWhateverTheOutcome() {
        return new ClusterOptions(false);
    }

    /**
     * This run's folder: the user's {@code --work-dir}, or a new one under {@code runs/}. Empty, after one line on
     * {@code err} saying why, when it cannot be made.
     */
    Optional<Path> workDir(String command, PrintWriter err) {
        Path runs = Path.of("runs");
        try {
            return Optional.of(workDir(runs, command, LocalDateTime.now()));
        }
        catch (IOException ex) {
            err.printf("Unable to create a work directory in %s: %s%n",
                    workDir != null ? workDir.toAbsolutePath() : runs.toAbsolutePath(), why(ex));
            err.flush();
            return Optional.empty();
        }
    }

    private static String why(IOException ex) {
        return switch (ex) {
            case AccessDeniedException denied -> "permission denied on " + denied.getFile();
            case FileAlreadyExistsException file -> file.getFile() + " exists and is not a directory";
            case FileSystemException other when other.getReason() != null -> other.getFile() + ": " + other.getReason();
            default -> ex.getClass().getSimpleName() + " " + ex.getMessage();
        };
    }

    Path workDir(Path runs, String command, LocalDateTime now) throws IOException {
        if (workDir != null) {
            Files.createDirectories(workDir);
            return workDir.toAbsolutePath();
        }
        Path dir = createUnique(runs.toAbsolutePath(), command + "-" + now.format(TIMESTAMP));
        created = dir;
        return dir;
    }

    /**
     * Creates {@code runs/name}, or {@code runs/name-2}, {@code -3}, ... when a run started in the same second
     * has it: each name is taken atomically, so two runs never share one (their databases would collide).
     */
    static Path createUnique(Path runs, String name) throws IOException {
        int suffix = 1;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Files.createDirectories(runs);
            try {
                return Files.createDirectory(runs.resolve(suffix == 1 ? name : name + "-" + suffix));
            }
            catch (FileAlreadyExistsException ex) {
                suffix++;
            }
            catch (NoSuchFileException ex) {
                // runs/ went away in between (the clean-up of a run that just ended): made again on the next attempt
            }
        }
        throw new IOException("no free name from " + name + " to " + name + "-" + suffix + " after " + MAX_ATTEMPTS
                + " attempts");
    }

    /** The command keeps its data whatever the outcome (e.g. nodes left running for the user to browse). */
    void keepData() {
        keepData = true;
    }

    /**
     * Whether a run's folder stays at its end: when asked to keep it, or after a failed run of a command that keeps
     * those, unless the run stopped for a missing native library (its one line says all, there is nothing to read).
     */
    static boolean keeps(int exitCode, boolean keepData, boolean keepsFailedRuns) {
        boolean failed = exitCode != ExitCode.OK.code() && exitCode != ExitCode.ENVIRONMENT_UNSUPPORTED.code();
        return keepData || keepsFailedRuns && failed;
    }

    /** Removes the folder this run created unless {@link #keeps} says it stays; says where when it stays. */
    void cleanUp(int exitCode, PrintWriter out) {
        if (created == null) {
            return;
        }
        if (!keeps(exitCode, keepData, keepsFailedRuns)) {
            try {
                FileSystemUtils.deleteRecursively(created);
                deleteIfEmpty(created.getParent());
            }
            catch (IOException ex) {
                out.printf("Could not remove %s: %s%n", created, ex.getMessage());
            }
        }
        else {
            out.printf("Data and log kept in %s%s%n", created, keepData ? "" : " (the run did not succeed)");
        }
        out.flush();
        created = null;
    }

    /** runs/ itself goes too once the last run in it is gone. */
    private static void deleteIfEmpty(Path dir) throws IOException {
        try {
            Files.deleteIfExists(dir);
        }
        catch (DirectoryNotEmptyException ex) {
            // other runs' data, kept
        }
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;
import picocli.CommandLine.Option;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * Options every embedded-default command shares. A run's databases and broker journals (tens of MB) go
 * to a fresh folder under {@code runs/} that is removed once the run succeeded, unless asked to keep it;
 * a failed run keeps it for its log. A folder named with {@code --work-dir} is the user's and is kept.
 */
final class ClusterOptions {

    @Option(names = { "-t", "--transport" }, defaultValue = "jms",
            description = "Transport between the nodes: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    TransportKind transport;

    @Option(names = "--work-dir", description = "Where databases, broker journals and the log go, kept after the run "
            + "(default: runs/<command>-<timestamp>, removed after a successful run).")
    @Nullable Path workDir;

    @Option(names = "--plain", description = "Security off: brokers in plain TCP and DDS without DDS Security "
            + "(to measure what security costs). By default each run makes a site PKI of its own in the work "
            + "directory and the nodes use it.")
    boolean plain;

    @Option(names = "--keep-data", description = "Keep the databases, broker journals and log of a successful run.")
    boolean keepData;

    /** The folder this run created and removes at the end; null when there is none or it is to be kept. */
    private @Nullable Path created;

    Path workDir(String command) throws IOException {
        return workDir(Path.of("runs"), command);
    }

    Path workDir(Path runs, String command) throws IOException {
        if (workDir != null) {
            Files.createDirectories(workDir);
            return workDir.toAbsolutePath();
        }
        Path dir = runs.resolve(command + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
                .toAbsolutePath();
        Files.createDirectories(dir);
        created = dir;
        return dir;
    }

    /** The command keeps its data whatever the outcome (e.g. nodes left running for the user to browse). */
    void keepData() {
        keepData = true;
    }

    /** Removes the folder this run created when the run succeeded and nobody asked to keep it; says so otherwise. */
    void cleanUp(int exitCode, PrintWriter out) {
        if (created == null) {
            return;
        }
        if (exitCode == 0 && !keepData) {
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

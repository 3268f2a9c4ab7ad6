package kr.c4i.gateway.bridge.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import picocli.CommandLine.Option;

import kr.c4i.gateway.bridge.config.NodeProperties.TransportKind;

/** Options every embedded-default command shares. */
final class ClusterOptions {

    @Option(names = { "-t", "--transport" }, defaultValue = "jms",
            description = "Transport between the nodes: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    TransportKind transport;

    @Option(names = "--work-dir", description = "Where databases, broker journals and the log go "
            + "(default: runs/<command>-<timestamp>).")
    Path workDir;

    Path workDir(String command) throws IOException {
        Path dir = workDir != null ? workDir
                : Path.of("runs", command + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.createDirectories(dir);
        return dir.toAbsolutePath();
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * Options of the PostgreSQL a long-running process keeps (one node, one site's gateway): where it listens. Its data
 * outlive the process, also a kill -9, so a restart finds them as they were.
 */
final class DatabaseOptions {

    @Option(names = "--pg-port", defaultValue = "0", converter = OptionValues.Port.class,
            description = "PostgreSQL port (0: any free port).")
    int pgPort;

    @Option(names = "--pg-socket-dir",
            description = "Also let PostgreSQL listen on a Unix socket in this directory (reachable across network namespaces).")
    @Nullable Path pgSocketDir;

    /** A PostgreSQL keeping whatever its data directory holds, on the port and socket directory given. */
    EmbeddedPostgres.Builder keepingData() throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setCleanDataDirectory(false);
        if (pgPort > 0) {
            builder.setPort(pgPort);
        }
        if (pgSocketDir != null) {
            Files.createDirectories(pgSocketDir);
            builder.setServerConfig("unix_socket_directories", pgSocketDir.toAbsolutePath().toString());
        }
        return builder;
    }
}

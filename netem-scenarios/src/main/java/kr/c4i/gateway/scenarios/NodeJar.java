package kr.c4i.gateway.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/** Finds gateway-tools' executable jar (whose {@code node} runs a node) from a directory inside the project. */
final class NodeJar {

    private NodeJar() {
    }

    static @Nullable Path find(Path start) throws IOException {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path target = dir.resolve("tools").resolve("target");
            if (Files.isDirectory(target)) {
                try (Stream<Path> files = Files.list(target)) {
                    Path jar = files.filter(p -> p.getFileName().toString().matches("gateway-tools-.*-exec\\.jar"))
                            .findFirst().orElse(null);
                    if (jar != null) {
                        return jar;
                    }
                }
            }
        }
        return null;
    }
}

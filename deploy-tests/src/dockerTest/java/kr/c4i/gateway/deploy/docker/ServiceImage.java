package kr.c4i.gateway.deploy.docker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * A service's image as docker-compose.yml builds it: the stage of {@code deploy/docker/Dockerfile} named after the
 * service's module, from a build context that holds only the module's exec jar (as the module's .dockerignore has
 * it).
 */
final class ServiceImage {

    private ServiceImage() {
    }

    /** The image of {@code module} (db-bridge, wan-gateway) in the repository at {@code root}, built once per run. */
    static ImageFromDockerfile of(String name, Path root, String module) {
        Path jar;
        try (Stream<Path> files = Files.list(root.resolve(module).resolve("target"))) {
            jar = files.filter(file -> file.getFileName().toString().matches(module + "-.*-exec\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "No exec jar in " + module + "/target: run mvn -B -DskipTests package first"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Unable to list " + module + "/target: run mvn -B -DskipTests package first",
                    ex);
        }
        return new ImageFromDockerfile(name, false)
                .withFileFromPath("Dockerfile", root.resolve("deploy/docker/Dockerfile"))
                .withFileFromPath("target/" + jar.getFileName(), jar)
                .withTarget(module);
    }
}

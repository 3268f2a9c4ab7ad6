package kr.c4i.gateway.deploy.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/images prune} on a real engine: an image that a rebuild of one of ours left without a name goes, while a
 * nameless image built from the Debian base without our label (a site's own) and the images that keep their names
 * stay. The probes are images of one small file, removed after.
 */
class ImagesPruneIT {

    private static final Path ROOT = Path.of(System.getProperty("gateway.repository.root", "..")).toAbsolutePath()
            .normalize();

    /** The label bin/images gives every image it builds. */
    private static final String OURS = "org.c4i-gateway.built-by=bin/images";

    private final String nonce = UUID.randomUUID().toString().substring(0, 8);

    private final List<String> made = new ArrayList<>();

    @Test
    void aRebuiltImageOfOursLeftWithoutANameGoesAndNothingElse() {
        String ours = "c4i-gateway-it/prune-probe:" + nonce;
        String first = build(ours, true, 1);
        String rebuilt = build(ours, true, 2);
        String site = "c4i-gateway-it/site-probe:" + nonce;
        String sitesFirst = build(site, false, 1);
        String sitesRebuilt = build(site, false, 2);
        assertThat(nameless()).as("the images before the rebuilds, left without a name").contains(first, sitesFirst);

        String output = run(List.of(ROOT.resolve("bin/images").toString(), "prune"), ROOT);

        assertThat(output).contains("reclaimed");
        assertThat(exists(first)).as("our image the rebuild left without a name").isFalse();
        assertThat(exists(rebuilt)).as("our image that keeps its name").isTrue();
        assertThat(exists(sitesFirst)).as("a nameless image without our label (a site's own)").isTrue();
        assertThat(exists(sitesRebuilt)).isTrue();
    }

    @AfterEach
    void removeTheProbes() {
        for (String image : made) {
            if (exists(image)) {
                run(List.of("docker", "image", "rm", "--force", image), ROOT);
            }
        }
    }

    /**
     * A probe image of one small file, imported as bin/images imports its base, different from the one before it under
     * the same name; its id.
     */
    private String build(String name, boolean labelledOurs, int version) {
        try {
            Path layer = Files.createTempDirectory("images-prune-");
            try {
                Files.writeString(layer.resolve("probe"), nonce + "-" + version);
                run(List.of("tar", "-cf", "probe.tar", "probe"), layer);
                List<String> command = new ArrayList<>(List.of("docker", "import"));
                if (labelledOurs) {
                    command.addAll(List.of("--change", "LABEL " + OURS));
                }
                command.addAll(List.of(layer.resolve("probe.tar").toString(), name));
                String id = run(command, ROOT).strip();
                assertThat(id).as("the id docker import printed").startsWith("sha256:");
                made.add(id);
                return id;
            }
            finally {
                try (var files = Files.list(layer)) {
                    for (Path file : files.toList()) {
                        Files.delete(file);
                    }
                }
                Files.delete(layer);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<String> nameless() {
        return run(List.of("docker", "image", "ls", "--quiet", "--no-trunc", "--filter", "dangling=true"), ROOT).lines()
                .toList();
    }

    private static boolean exists(String image) {
        try {
            run(List.of("docker", "image", "inspect", image), ROOT);
            return true;
        }
        catch (IllegalStateException ex) {
            if (ex.getMessage().contains("No such image")) {
                return false;
            }
            throw ex;
        }
    }

    private static String run(List<String> command, Path directory) {
        return Commands.run(directory, Map.of(), command, Duration.ofMinutes(2));
    }
}

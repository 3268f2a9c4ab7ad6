package kr.c4i.gateway.deploy;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.deploy.Dockerfile.Instruction;

import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every service image docker-compose.yml builds (each service's stage of its Dockerfile): its base images are pinned official ones, every file it copies
 * from the build context exists (after {@code mvn package}, which has run before these tests in the reactor), it
 * runs as a non-root user and checks its readiness, and it runs the variables it sets past the service's
 * configuration.
 */
class DockerfileTest {

    private static final Set<String> NON_SPRING_VARIABLES = Set.of("JAVA_HOME", "PATH", "JAVA_TOOL_OPTIONS");

    @Test
    void baseImagesArePinnedOfficialImages() {
        List<String> problems = new ArrayList<>();
        for (Dockerfile dockerfile : builtByCompose().stream().map(Build::dockerfile).distinct().toList()) {
            Set<String> stages = new TreeSet<>();
            for (Instruction from : dockerfile.all("FROM")) {
                String[] words = from.arguments().split("\\s+");
                String image = words[0];
                if (!stages.contains(image)) {
                    String problem = Images.problem(image);
                    if (problem != null) {
                        problems.add(dockerfile.file() + ": " + problem);
                    }
                }
                if (words.length == 3 && words[1].equalsIgnoreCase("AS")) {
                    stages.add(words[2]);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyFileCopiedFromTheBuildContextExists() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Build build : builtByCompose()) {
            Dockerfile dockerfile = build.dockerfile();
            Path context = build.context();
            for (Instruction copy : copies(dockerfile)) {
                List<String> words = new ArrayList<>(List.of(copy.arguments().split("\\s+")));
                if (words.stream().anyMatch(word -> word.startsWith("--from="))) {
                    continue;
                }
                words.removeIf(word -> word.startsWith("--"));
                for (String source : words.subList(0, words.size() - 1)) {
                    if (matches(context, source) == 0) {
                        problems.add(dockerfile.file() + ": " + copy.keyword() + " " + source
                                + " matches nothing in " + context + " (run mvn -B -DskipTests package first)");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theServiceRunsAsANonRootUserAndChecksItsReadiness() {
        for (Build build : builtByCompose()) {
            Dockerfile dockerfile = build.dockerfile();
            List<Instruction> image = dockerfile.image(build.target());
            List<String> users = image.stream().filter(i -> i.keyword().equals("USER")).map(Instruction::arguments).toList();
            assertThat(users).as("%s: USER of the final stage", dockerfile.file()).isNotEmpty();
            assertThat(users.getLast()).as("%s: the last USER", dockerfile.file()).doesNotMatch("(root|0)(:.*)?");
            assertThat(image).as("%s: HEALTHCHECK on readiness", dockerfile.file())
                    .anyMatch(i -> i.keyword().equals("HEALTHCHECK") && i.arguments().contains("/actuator/health/readiness"));
            assertThat(dockerfile.all("RUN")).as("%s: Spring Boot's layered extraction", dockerfile.file())
                    .anyMatch(i -> i.arguments().contains("-Djarmode=tools") && i.arguments().contains("extract --layers"));
        }
    }

    /** Debian's packages of the native libraries each service loads through FFM by default. */
    private static final Map<String, List<String>> NATIVE_PACKAGES = Map.of("db-bridge", List.of("libddsc0debian"),
            "wan-gateway", List.of("libddsc0debian", "libnorm1"));

    @Test
    void theImageInstallsTheNativeLibrariesItsServiceLoads() {
        for (Build build : builtByCompose()) {
            List<String> installed = build.dockerfile().image(build.target()).stream()
                    .filter(i -> i.keyword().equals("RUN") && i.arguments().contains("apt-get install"))
                    .flatMap(i -> Arrays.stream(i.arguments().split("\\s+"))).toList();
            String target = build.target();
            assertThat(target).as("%s: the stage compose builds", build.dockerfile().file()).isNotNull();
            assertThat(NATIVE_PACKAGES).as("native packages of the service of stage %s", target).containsKey(target);
            assertThat(installed).as("%s: packages apt-get installs in stage %s", build.dockerfile().file(),
                    target).containsAll(NATIVE_PACKAGES.get(target));
        }
    }

    @Test
    void everyVariableTheImageSetsIsOneTheServiceReads() {
        List<String> problems = new ArrayList<>();
        map(Repository.yaml("docker-compose.yml").get("services")).forEach((name, definition) -> {
            var service = map(definition);
            if (service.containsKey("build")) {
                Dockerfile dockerfile = Dockerfile.read(ComposeFileTest.dockerfile(service));
                ConfigurationMetadata metadata = ConfigurationMetadata.of(ComposeFileTest.moduleMetadata(service));
                dockerfile.environment(ComposeFileTest.target(service)).keySet().stream()
                        .filter(variable -> !NON_SPRING_VARIABLES.contains(variable) && !metadata.binds(variable))
                        .forEach(variable -> problems.add(dockerfile.file() + ": ENV " + variable + " binds no property"));
            }
        });
        assertThat(problems).isEmpty();
    }

    private static List<Instruction> copies(Dockerfile dockerfile) {
        return dockerfile.instructions().stream().filter(i -> i.keyword().equals("COPY") || i.keyword().equals("ADD")).toList();
    }

    private static long matches(Path context, String source) throws IOException {
        PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + source.replaceAll("/+$", ""));
        try (Stream<Path> files = Files.walk(context)) {
            return files.filter(file -> glob.matches(context.relativize(file))).count();
        }
    }

    /** An image docker-compose.yml builds: the Dockerfile, the build context, the stage built (null: the last). */
    private record Build(Dockerfile dockerfile, Path context, @Nullable String target) {
    }

    /** The images docker-compose.yml builds, each once. */
    private static List<Build> builtByCompose() {
        List<Build> builds = map(Repository.yaml("docker-compose.yml").get("services")).values().stream()
                .map(Repository::map).filter(service -> service.containsKey("build"))
                .map(service -> new Build(Dockerfile.read(ComposeFileTest.dockerfile(service)),
                        ComposeFileTest.buildContext(service), ComposeFileTest.target(service)))
                .distinct().toList();
        assertThat(builds).as("images docker-compose.yml builds").isNotEmpty();
        return builds;
    }
}

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
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.deploy.Dockerfile.Instruction;
import kr.c4i.gateway.deploy.Images.Built;

import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every image bin/images builds from a Dockerfile (the services' stages of deploy/docker/Dockerfile, the JRE,
 * PostgreSQL, Prometheus): its base images are built here or pinned official ones, every file it copies from the
 * build context exists and is sent by its .dockerignore (after {@code mvn package}, which has run before these tests
 * in the reactor); each service image compose runs (found from its image's default) runs as a non-root user, a
 * long-running one checks its readiness, installs the native libraries its service loads, and sets only
 * variables the service reads.
 */
class DockerfileTest {

    private static final Set<String> NON_SPRING_VARIABLES = Set.of("JAVA_HOME", "PATH", "JAVA_TOOL_OPTIONS", "LANG");

    @Test
    void baseImagesAreBuiltHereOrPinnedOfficialImages() {
        List<String> problems = new ArrayList<>();
        for (Built image : fromDockerfiles()) {
            Dockerfile dockerfile = Dockerfile.read(image.dockerfile());
            Set<String> stages = new TreeSet<>();
            for (Instruction from : dockerfile.all("FROM")) {
                String[] words = from.arguments().split("\\s+");
                if (!stages.contains(words[0])) {
                    String problem = Images.problem(words[0]);
                    if (problem != null) {
                        problems.add(dockerfile.file() + ": " + problem);
                    }
                }
                if (words.length == 3 && words[1].equalsIgnoreCase("AS")) {
                    stages.add(words[2]);
                }
            }
            // What bin/images gives the ARGs instead of their defaults.
            image.arguments().forEach((argument, value) -> {
                String problem = argument.endsWith("_IMAGE") ? Images.problem(value) : null;
                if (problem != null) {
                    problems.add(Images.SCRIPT + " builds " + image.image() + " with " + argument + "=" + problem);
                }
            });
            // The official alternatives its comments document.
            Images.named(Repository.read(image.dockerfile())).forEach((argument, references) -> references.forEach(reference -> {
                String problem = Images.problem(reference);
                if (problem != null) {
                    problems.add(dockerfile.file() + " documents " + argument + "=" + problem);
                }
            }));
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyFileCopiedFromTheBuildContextExists() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Built image : fromDockerfiles()) {
            Path context = image.context();
            if (context == null || image.generated()) {
                // The JRE's context is the runtime jlink makes in bin/images, there only while it builds.
                continue;
            }
            Dockerfile dockerfile = Dockerfile.read(image.dockerfile());
            List<String> ignored = dockerignore(context);
            // Every stage's: the stage built copies from the others (the exec jar comes in through extract).
            for (Instruction copy : copies(dockerfile)) {
                List<String> words = new ArrayList<>(List.of(copy.arguments().split("\\s+")));
                if (words.stream().anyMatch(word -> word.startsWith("--from="))) {
                    continue;
                }
                words.removeIf(word -> word.startsWith("--"));
                for (String source : words.subList(0, words.size() - 1)) {
                    if (matches(context, source, ignored) == 0) {
                        problems.add(dockerfile.file() + " (" + image.image() + "): " + copy.keyword() + " " + source
                                + " matches nothing " + context + "'s .dockerignore sends (run mvn -B -DskipTests package first)");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theServiceRunsAsANonRootUserAndChecksItsReadiness() {
        Map<String, Map<String, Object>> services = map(Repository.yaml("docker-compose.yml").get("services")).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> map(entry.getValue())));
        for (Built image : servicesImages()) {
            Dockerfile dockerfile = Dockerfile.read(image.dockerfile());
            List<Instruction> instructions = dockerfile.image(image.target());
            List<String> users = instructions.stream().filter(i -> i.keyword().equals("USER")).map(Instruction::arguments).toList();
            assertThat(users).as("%s: USER of stage %s", dockerfile.file(), image.target()).isNotEmpty();
            assertThat(users.getLast()).as("%s: the last USER of stage %s", dockerfile.file(), image.target())
                    .doesNotMatch("(root|0)(:.*)?");
            assertThat(dockerfile.all("RUN")).as("%s: Spring Boot's layered extraction", dockerfile.file())
                    .anyMatch(i -> i.arguments().contains("-Djarmode=tools") && i.arguments().contains("extract --layers"));
            // A service that stays up (not a one-shot running a script instead) reports when it is ready.
            boolean longRunning = services.values().stream().anyMatch(service -> ComposeFileTest.defaultImage(service)
                    .equals(image.image()) && !service.containsKey("entrypoint"));
            if (longRunning) {
                assertThat(instructions).as("%s: HEALTHCHECK on readiness in stage %s", dockerfile.file(), image.target())
                        .anyMatch(i -> i.keyword().equals("HEALTHCHECK") && i.arguments().contains("/actuator/health/readiness"));
            }
        }
    }

    /** Debian's packages of the native libraries each service loads through FFM by default (the tools: none). */
    private static final Map<String, List<String>> NATIVE_PACKAGES = Map.of("db-bridge", List.of("libddsc0debian"),
            "wan-gateway", List.of("libddsc0debian", "libnorm1"), "gateway-tools", List.of());

    @Test
    void theImageInstallsTheNativeLibrariesItsServiceLoads() {
        for (Built image : servicesImages()) {
            String target = image.target();
            assertThat(target).as("%s: the stage %s builds", image.image(), Images.SCRIPT).isNotNull();
            List<String> installed = Dockerfile.read(image.dockerfile()).image(target).stream()
                    .filter(i -> i.keyword().equals("RUN") && i.arguments().contains("apt-get install"))
                    .flatMap(i -> Arrays.stream(i.arguments().split("\\s+"))).toList();
            assertThat(NATIVE_PACKAGES).as("native packages of the service of stage %s", target).containsKey(target);
            assertThat(installed).as("%s: packages apt-get installs in stage %s", image.dockerfile(), target)
                    .containsAll(NATIVE_PACKAGES.get(target));
        }
    }

    @Test
    void everyVariableTheImageSetsIsOneTheServiceReads() {
        List<String> problems = new ArrayList<>();
        for (Built image : composeImages()) {
            Map<String, String> environment = Dockerfile.read(image.dockerfile()).environment(image.target());
            List<String> variables = environment.keySet().stream().filter(variable -> !NON_SPRING_VARIABLES.contains(variable)).toList();
            if (!variables.isEmpty()) {
                Predicate<String> reads = ComposeFileTest.reads(image.image());
                variables.stream().filter(reads.negate()).forEach(variable -> problems.add(image.dockerfile() + " ("
                        + image.image() + "): ENV " + variable + " is read by neither its service nor its scripts"));
            }
        }
        assertThat(problems).isEmpty();
    }

    private static List<Instruction> copies(Dockerfile dockerfile) {
        return dockerfile.instructions().stream().filter(i -> i.keyword().equals("COPY") || i.keyword().equals("ADD")).toList();
    }

    /** How many files of the context match {@code source} and are not left out by its .dockerignore. */
    private static long matches(Path context, String source, List<String> ignored) throws IOException {
        PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + source.replaceAll("/+$", ""));
        try (Stream<Path> files = Files.walk(context)) {
            return files.map(context::relativize).filter(file -> glob.matches(file) && sent(file, ignored)).count();
        }
    }

    /** The .dockerignore's patterns (a leading ! re-includes), in order. */
    private static List<String> dockerignore(Path context) throws IOException {
        Path file = context.resolve(".dockerignore");
        return Files.isRegularFile(file) ? Files.readAllLines(file).stream().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList() : List.of();
    }

    /** As Docker: the last pattern matching the file or a directory above it decides. */
    private static boolean sent(Path file, List<String> ignored) {
        boolean sent = true;
        for (String pattern : ignored) {
            boolean exception = pattern.startsWith("!");
            PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(exception ? 1 : 0).replaceAll("/+$", ""));
            for (Path above = file; above != null; above = above.getParent()) {
                if (glob.matches(above)) {
                    sent = exception;
                    break;
                }
            }
        }
        return sent;
    }

    /** The images bin/images builds from a Dockerfile. */
    private static List<Built> fromDockerfiles() {
        List<Built> images = Images.builtHere().stream().filter(image -> image.dockerfile() != null).toList();
        assertThat(images).as("images %s builds from a Dockerfile", Images.SCRIPT).isNotEmpty();
        assertThat(images).allSatisfy(image -> assertThat(image.dockerfile()).as("%s's Dockerfile", image.image()).isRegularFile());
        return images;
    }

    /** The images built here that docker-compose.yml's services run (their images' defaults), each once. */
    private static List<Built> composeImages() {
        List<Built> images = map(Repository.yaml("docker-compose.yml").get("services")).values().stream()
                .map(Repository::map).map(ComposeFileTest::defaultImage).distinct()
                .flatMap(reference -> Images.built(reference).stream()).filter(image -> image.dockerfile() != null).toList();
        assertThat(images).as("images built here that docker-compose.yml runs").isNotEmpty();
        return images;
    }

    /** Of those, the gateway's own services (Spring Boot applications): the node, the WAN gateway, the tools. */
    private static List<Built> servicesImages() {
        List<Built> images = composeImages().stream()
                .filter(image -> ComposeFileTest.runsSpringBoot(Dockerfile.read(image.dockerfile()), image.target())).toList();
        assertThat(images).as("service images docker-compose.yml runs").isNotEmpty();
        return images;
    }
}

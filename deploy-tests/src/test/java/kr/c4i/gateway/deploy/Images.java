package kr.c4i.gateway.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/** What counts as an image built here (by bin/images) or a pinned official image. */
final class Images {

    /**
     * Docker Official Images ({@code postgres}, {@code debian}, {@code eclipse-temurin}) and the projects' own
     * (Prometheus's, Grafana's), by repository as written in an image reference.
     */
    static final Set<String> OFFICIAL = Set.of("postgres", "debian", "eclipse-temurin", "prom/prometheus",
            "grafana/grafana");

    static final String SCRIPT = "bin/images";

    private static final Pattern REFERENCE = Pattern.compile(
            "(?:docker\\.io/(?:library/)?)?(?<repository>[a-z0-9._/-]+):(?<tag>[A-Za-z0-9_.-]+)(?:@sha256:[0-9a-f]{64})?");

    /** A release tag names at least major.minor ({@code 17.6-bookworm}, {@code v3.5.0}, {@code 25.0.3_9-jre}). */
    private static final Pattern RELEASE_TAG = Pattern.compile("v?[0-9]+\\.[0-9]+([._-].*)?");

    /** An image named with its reference where a file documents it: {@code POSTGRES_IMAGE=postgres:17.6-bookworm}. */
    static final Pattern NAMED = Pattern.compile("\\b([A-Z][A-Z0-9_]*_IMAGE)=([A-Za-z0-9._/:@-]*[A-Za-z0-9_])");

    /**
     * An image bin/images builds.
     *
     * @param image its reference
     * @param dockerfile its Dockerfile (null: not built from one, as the Debian base, imported from mmdebstrap's tarball)
     * @param target the Dockerfile's stage built (null: the last)
     * @param context the build context (a directory bin/images makes under target/ for a generated one)
     * @param arguments its {@code --build-arg}s
     */
    record Built(String image, @Nullable Path dockerfile, @Nullable String target, @Nullable Path context,
            Map<String, String> arguments) {

        /** Its context is made by bin/images at build time (the jlink runtime), not a directory of the sources. */
        boolean generated() {
            return context != null && context.startsWith(Repository.file("target"));
        }
    }

    private static @Nullable List<Built> builtHere;

    /** Every image bin/images builds: each {@code build IMAGE [options] CONTEXT} and {@code docker import ... IMAGE}. */
    static synchronized List<Built> builtHere() {
        if (builtHere == null) {
            List<Built> built = new ArrayList<>();
            Shell.walk(Repository.read(Repository.file(SCRIPT)), Map.of("root", Repository.ROOT.toString()), command -> {
                List<String> words = command.arguments();
                if (words.size() >= 3 && words.getFirst().equals("build")) {
                    built.add(build(words.subList(1, words.size())));
                }
                else if (words.size() >= 3 && words.get(0).equals("docker") && words.get(1).equals("import")) {
                    built.add(new Built(words.getLast(), null, null, null, Map.of()));
                }
            });
            assertThat(built).as("images %s builds", SCRIPT).isNotEmpty()
                    .allSatisfy(image -> assertThat(image.image()).as("an image %s builds", SCRIPT)
                            .matches(REFERENCE).doesNotContain("$"));
            builtHere = List.copyOf(built);
        }
        return builtHere;
    }

    /** {@code IMAGE [-f DOCKERFILE] [--target STAGE] [--build-arg NAME=VALUE]... CONTEXT}. */
    private static Built build(List<String> words) {
        String dockerfile = null;
        String target = null;
        Map<String, String> arguments = new LinkedHashMap<>();
        for (int i = 1; i < words.size() - 2; i += 2) {
            String value = words.get(i + 1);
            switch (words.get(i)) {
                case "-f", "--file" -> dockerfile = value;
                case "--target" -> target = value;
                case "--build-arg" -> arguments.put(value.split("=", 2)[0], value.contains("=") ? value.split("=", 2)[1] : "");
                case "--label", "-t", "--tag" -> {
                    // Not what the image is built from.
                }
                default -> throw new IllegalArgumentException(SCRIPT + ": build " + words + ": unknown option " + words.get(i));
            }
        }
        Path context = Path.of(words.getLast()).normalize();
        return new Built(words.getFirst(), (dockerfile == null ? context.resolve("Dockerfile") : Path.of(dockerfile)).normalize(),
                target, context, Map.copyOf(arguments));
    }

    /** The image bin/images builds as {@code reference}, if it does. */
    static Optional<Built> built(String reference) {
        return builtHere().stream().filter(image -> image.image().equals(reference)).findFirst();
    }

    /** Why {@code reference} is neither built here nor a pinned official image, or null if it is one of them. */
    static @Nullable String problem(String reference) {
        if (built(reference).isPresent()) {
            return null;
        }
        Matcher matcher = REFERENCE.matcher(reference);
        if (!matcher.matches()) {
            return reference + ": no tag (it would be latest)";
        }
        if (!OFFICIAL.contains(matcher.group("repository"))) {
            return reference + ": not an official image (" + OFFICIAL + ") nor one " + SCRIPT + " builds ("
                    + builtHere().stream().map(Built::image).toList() + ")";
        }
        String tag = matcher.group("tag");
        if (!RELEASE_TAG.matcher(tag).matches()) {
            return reference + ": tag " + tag + " is no exact release (major.minor at least)";
        }
        return null;
    }

    /** The repository of an image reference ({@code postgres} of {@code postgres:17.6-bookworm}), or the reference. */
    static String repository(String reference) {
        Matcher matcher = REFERENCE.matcher(reference);
        return matcher.matches() ? matcher.group("repository") : reference;
    }

    /** Every {@code NAME_IMAGE=reference} {@code text} names, also in its comments, by variable. */
    static Map<String, List<String>> named(String text) {
        Map<String, List<String>> named = new LinkedHashMap<>();
        Matcher matcher = NAMED.matcher(text);
        while (matcher.find()) {
            named.computeIfAbsent(matcher.group(1), variable -> new ArrayList<>()).add(matcher.group(2));
        }
        return named;
    }

    private Images() {
    }
}

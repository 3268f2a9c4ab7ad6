package kr.c4i.gateway.deploy;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/** What counts as a pinned official image. */
final class Images {

    /**
     * Docker Official Images ({@code postgres}, {@code debian}, {@code eclipse-temurin}) and the projects' own
     * (Prometheus's, Grafana's), by repository as written in an image reference.
     */
    static final Set<String> OFFICIAL = Set.of("postgres", "debian", "eclipse-temurin", "prom/prometheus",
            "grafana/grafana");

    private static final Pattern REFERENCE = Pattern.compile(
            "(?:docker\\.io/(?:library/)?)?(?<repository>[a-z0-9._/-]+):(?<tag>[A-Za-z0-9_.-]+)(?:@sha256:[0-9a-f]{64})?");

    /** A release tag names at least major.minor ({@code 17.6-bookworm}, {@code v3.5.0}, {@code 25.0.3_9-jre}). */
    private static final Pattern RELEASE_TAG = Pattern.compile("v?[0-9]+\\.[0-9]+([._-].*)?");

    /** Why {@code reference} is not a pinned official image, or null if it is. */
    static @Nullable String problem(String reference) {
        Matcher matcher = REFERENCE.matcher(reference);
        if (!matcher.matches()) {
            return reference + ": no tag (it would be latest)";
        }
        if (!OFFICIAL.contains(matcher.group("repository"))) {
            return reference + ": not an official image (" + OFFICIAL + ") nor built here";
        }
        String tag = matcher.group("tag");
        if (!RELEASE_TAG.matcher(tag).matches()) {
            return reference + ": tag " + tag + " is no exact release (major.minor at least)";
        }
        return null;
    }

    private Images() {
    }
}

package kr.c4i.gateway.tools.node;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * What a service (a node's bridge, a site's WAN gateway) is started with, and how that renders: as a property map
 * (the service in this JVM), as {@code --key=value} arguments (the service as a process) and as environment variables
 * for the secrets, which never go on a command line that every local user can read with {@code ps}. Which properties
 * are secret is each launch's own rule.
 */
public abstract sealed class Launch permits NodeLaunch, GatewayLaunch {

    /** The management user of a node or gateway whose launch names none (Spring Boot's default). */
    public static final String DEFAULT_MANAGEMENT_USER = "user";

    /**
     * The file in a node's or gateway's directory where {@code node}, {@code wan}, {@code demo} and {@code bench}
     * keep the management password they made for it, and where the harness reads it.
     */
    public static final String MANAGEMENT_PASSWORD_FILE = "management-password";


    private final Map<String, String> properties;
    private final Predicate<String> secret;

    /** @param secret whether a property (by key) is a secret */
    Launch(Map<String, String> properties, Predicate<String> secret) {
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        this.secret = secret;
    }

    /** Every property, secrets included, in the order given: for a service started in this JVM. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The properties without the secrets, in order. */
    public Map<String, String> publicProperties() {
        Map<String, String> open = new LinkedHashMap<>(properties);
        open.keySet().removeIf(secret);
        return Collections.unmodifiableMap(open);
    }

    /** The properties but the secrets as {@code --key=value}: a process's command line. */
    public List<String> arguments() {
        return publicProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    /**
     * The secrets as the environment variables Spring Boot binds them from ({@code spring.datasource.password} as
     * {@code SPRING_DATASOURCE_PASSWORD}): a process's environment.
     */
    public Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        properties.forEach((key, value) -> {
            if (secret.test(key)) {
                environment.put(variable(key), value);
            }
        });
        return Collections.unmodifiableMap(environment);
    }

    /** The management endpoints' password, if one was given. */
    public @Nullable String managementPassword() {
        return properties.get("spring.security.user.password");
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + publicProperties();
    }

    /** Spring Boot's relaxed binding from the environment: dots become underscores, dashes go, upper case. */
    static String variable(String key) {
        return key.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /**
     * Collects a service's settings; each method sets the properties of one concern. These are the concerns every
     * service has; each launch's builder adds its own.
     *
     * @param <B> the launch's own builder, which every method returns
     */
    public abstract static sealed class Builder<B extends Builder<B>> permits NodeLaunch.Builder, GatewayLaunch.Builder {

        private final Map<String, String> properties = new LinkedHashMap<>();

        Builder() {
        }

        /** Sets one property, over any earlier value of it. */
        final B set(String key, String value) {
            properties.put(key, value);
            return self();
        }

        /** The properties set so far, in order. */
        final Map<String, String> settings() {
            return properties;
        }

        /** The service's database. */
        public B datasource(String url, String user, String password) {
            set("spring.datasource.url", url);
            set("spring.datasource.username", user);
            return set("spring.datasource.password", password);
        }

        /** The management endpoints' port. */
        public B managementPort(int port) {
            return set("management.server.port", Integer.toString(port));
        }

        /** The management endpoints' password (user {@code user}). */
        public B managementPassword(String password) {
            return set("spring.security.user.password", password);
        }

        /** Logs to this file; no banner. */
        public B logFile(Path file) {
            set("spring.main.banner-mode", "off");
            return set("logging.file.name", file.toString());
        }

        /** Any other property of the service (tuning), applied after, and over, the ones above. */
        public B property(String key, String value) {
            return set(key, value);
        }

        /** More properties of the service, as {@link #property}. */
        public B properties(Map<String, ?> more) {
            more.forEach((key, value) -> set(key, String.valueOf(value)));
            return self();
        }

        /**
         * The settings with the explicit choices a service needs to start when nothing else was chosen, e.g. a plain
         * transport where no security was set: each of {@code defaults} whose group has no property yet.
         *
         * @param defaults property to its value, each with the prefix of its group, e.g.
         *        {@code gateway.dds.security.plain=true} for {@code gateway.dds.security.}
         */
        final Map<String, String> withDefaults(Map<String, Map.Entry<String, String>> defaults) {
            Map<String, String> added = new LinkedHashMap<>();
            defaults.forEach((group, property) -> {
                if (properties.keySet().stream().noneMatch(key -> key.startsWith(group))) {
                    added.put(property.getKey(), property.getValue());
                }
            });
            if (added.isEmpty()) {
                return properties;
            }
            // With the other gateway.* settings, before the database's and management's.
            String lastGateway = properties.keySet().stream().filter(key -> key.startsWith("gateway."))
                    .reduce((first, second) -> second).orElse(null);
            Map<String, String> all = new LinkedHashMap<>();
            if (lastGateway == null) {
                all.putAll(added);
            }
            properties.forEach((key, value) -> {
                all.put(key, value);
                if (key.equals(lastGateway)) {
                    all.putAll(added);
                }
            });
            return all;
        }

        // The one subclass of Builder<B> is B itself (the permitted builders each name themselves).
        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}

package kr.c4i.gateway.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The properties a Spring Boot service binds, from the configuration metadata Spring Boot generates
 * ({@code META-INF/spring-configuration-metadata.json}): the service module's own and every one on this classpath
 * (Spring Boot's, for {@code spring.*} and {@code management.*}). Tells whether an environment variable binds to one
 * of them by Spring Boot's relaxed binding: dots become underscores, dashes go, upper case; a map property takes its
 * key (and, for a record value, the record's component) as further segments.
 */
final class ConfigurationMetadata {

    private static final String RESOURCE = "META-INF/spring-configuration-metadata.json";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Property name to its type, as the metadata gives it. */
    private final Map<String, String> properties = new HashMap<>();

    static ConfigurationMetadata of(Path moduleMetadata) {
        ConfigurationMetadata metadata = new ConfigurationMetadata();
        try {
            metadata.add(JSON.readTree(Files.readString(moduleMetadata)));
            Enumeration<URL> resources = ConfigurationMetadata.class.getClassLoader().getResources(RESOURCE);
            while (resources.hasMoreElements()) {
                try (InputStream in = resources.nextElement().openStream()) {
                    metadata.add(JSON.readTree(in));
                }
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return metadata;
    }

    /** The properties {@code moduleMetadata} declares, the module's own (not its dependencies'), with their types. */
    static Map<String, String> declared(Path moduleMetadata) {
        ConfigurationMetadata metadata = new ConfigurationMetadata();
        try {
            metadata.add(JSON.readTree(Files.readString(moduleMetadata)));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return Map.copyOf(metadata.properties);
    }

    private void add(JsonNode document) {
        for (JsonNode property : document.path("properties")) {
            properties.put(property.path("name").asString(), property.path("type").asString(""));
        }
    }

    boolean contains(String property) {
        return properties.containsKey(property);
    }

    boolean binds(String variable) {
        for (Map.Entry<String, String> property : properties.entrySet()) {
            String form = environmentForm(property.getKey());
            if (variable.equals(form)) {
                return true;
            }
            String type = property.getValue();
            if (variable.startsWith(form + "_")) {
                String rest = variable.substring(form.length() + 1);
                if (type.startsWith("java.util.Map<") && mapEntryBinds(type, rest)) {
                    return true;
                }
                if ((type.startsWith("java.util.List<") || type.startsWith("java.util.Set<")) && rest.matches("[0-9]+")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code rest} is {@code KEY} for a map of plain values, {@code KEY_COMPONENT} for a map of records. */
    private static boolean mapEntryBinds(String type, String rest) {
        String valueType = type.substring(type.indexOf(',') + 1, type.lastIndexOf('>')).trim();
        Class<?> record = recordClass(valueType);
        if (record == null) {
            return rest.matches("[A-Z0-9]+");
        }
        int separator = rest.indexOf('_');
        return separator > 0 && Arrays.stream(record.getRecordComponents())
                .anyMatch(component -> rest.substring(separator + 1).equals(environmentForm(component.getName())));
    }

    private static @Nullable Class<?> recordClass(String name) {
        try {
            Class<?> type = Class.forName(name);
            return type.isRecord() ? type : null;
        }
        catch (ClassNotFoundException | LinkageError ex) {
            return null;
        }
    }

    /** The environment variable Spring Boot binds a property from, e.g. {@code GATEWAY_JMS_EMBEDDED_DATADIRECTORY}. */
    static String environmentForm(String property) {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }
}

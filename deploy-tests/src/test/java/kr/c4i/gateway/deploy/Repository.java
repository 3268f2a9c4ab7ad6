package kr.c4i.gateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The repository's deployment files, as the tests read them. */
final class Repository {

    static final Path ROOT = Path.of(System.getProperty("gateway.repository.root", "..")).toAbsolutePath().normalize();

    static Path file(String relative) {
        return ROOT.resolve(relative);
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A YAML file as compose reads it: anchors and merge keys resolved. */
    static Map<String, Object> yaml(String relative) {
        Map<String, Object> document = new Yaml(new LoaderOptions()).load(read(file(relative)));
        return document == null ? Map.of() : document;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value == null ? Map.of() : (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value == null ? List.of() : (List<Object>) value;
    }

    /** A service's environment, in either of compose's forms (map, or list of {@code NAME=value}). */
    static Map<String, String> environment(Map<String, Object> service) {
        Object environment = service.get("environment");
        Map<String, String> variables = new LinkedHashMap<>();
        if (environment instanceof Map<?, ?> entries) {
            entries.forEach((name, value) -> variables.put(name.toString(), String.valueOf(value)));
        }
        else {
            for (Object entry : list(environment)) {
                String[] parts = entry.toString().split("=", 2);
                variables.put(parts[0], parts.length > 1 ? parts[1] : "");
            }
        }
        return variables;
    }

    private Repository() {
    }
}

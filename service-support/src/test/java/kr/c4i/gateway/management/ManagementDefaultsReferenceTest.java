package kr.c4i.gateway.management;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/** docs/configuration.md's table of the shared management settings is what management-defaults.yaml sets. */
class ManagementDefaultsReferenceTest {

    private static final Path REFERENCE = Path.of("../docs/configuration.md");

    // | `management.x.y` | `value` |
    private static final Pattern ROW = Pattern.compile("^\\| `(management\\.[^`]+)` \\| `([^`]*)` \\|$");

    @Test
    void theDocumentedDefaultsAreTheShippedOnes() throws IOException {
        Map<String, String> shipped = new TreeMap<>();
        for (PropertySource<?> source : new YamlPropertySourceLoader().load("defaults",
                new ClassPathResource("management-defaults.yaml", ManagementDefaults.class))) {
            EnumerablePropertySource<?> properties = (EnumerablePropertySource<?>) source;
            for (String name : properties.getPropertyNames()) {
                shipped.put(name, String.valueOf(properties.getProperty(name)));
            }
        }
        Map<String, String> documented = new TreeMap<>();
        for (String line : Files.readAllLines(REFERENCE)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                documented.put(row.group(1), row.group(2));
            }
        }
        assertThat(shipped).containsKey("management.server.address");
        assertThat(documented).as("shared management settings in %s", REFERENCE).isEqualTo(shipped);
    }
}

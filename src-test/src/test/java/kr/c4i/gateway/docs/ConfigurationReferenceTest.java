package kr.c4i.gateway.bridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is the reference operators read; the code's defaults are the {@code @DefaultValue}s of the
 * properties records, which spring-boot-configuration-processor writes into the metadata. The two must agree.
 */
class ConfigurationReferenceTest {

    private static final Path REFERENCE = Path.of("../docs/configuration.md");

    // | <a id="gateway.x.y"></a>`gateway.x.y...` | default | meaning |
    private static final Pattern ROW = Pattern.compile("^\\| <a id=\"(gateway\\.[^\"]+)\"></a>.*? \\| (.*?) \\| .* \\|$");

    // One literal in backticks, which a reader takes for the default itself.
    private static final Pattern LITERAL = Pattern.compile("`[^`]*`");

    @Test
    void everyGatewayPropertyIsDocumentedWithTheCodesDefaultAndNothingElseIs() throws IOException {
        Map<String, Object> code = codeDefaults();
        Map<String, String> documented = documentedDefaults();

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(documented.keySet()).as("gateway.* properties in %s", REFERENCE)
                .containsExactlyInAnyOrderElementsOf(code.keySet());
        code.forEach((property, value) -> {
            String cell = documented.get(property);
            if (cell == null) {
                return;
            }
            if (value != null) {
                softly.assertThat(cell).as("default of %s in %s", property, REFERENCE).isEqualTo("`" + value + "`");
            }
            else {
                softly.assertThat(LITERAL.matcher(cell).matches())
                        .as("%s has no default in the code, so %s must describe what happens when it is unset "
                                + "rather than give a value: %s", property, REFERENCE, cell)
                        .isFalse();
            }
        });
        softly.assertAll();
    }

    /** Every gateway.* property the application binds, with its default or {@code null}. */
    private static Map<String, Object> codeDefaults() throws IOException {
        try (InputStream metadata = ConfigurationReferenceTest.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(metadata).as("metadata from spring-boot-configuration-processor").isNotNull();
            List<Map<String, Object>> properties = JsonPath.read(metadata, "$.properties[*]");
            Map<String, Object> defaults = new TreeMap<>();
            properties.stream().filter(property -> ((String) property.get("name")).startsWith("gateway."))
                    .forEach(property -> defaults.put((String) property.get("name"), property.get("defaultValue")));
            assertThat(defaults).containsKeys("gateway.node.id", "gateway.dds.domain-id", "gateway.jms.user",
                    "gateway.outbox.batch-size", "gateway.inbox.enabled", "gateway.routing.subscriptions");
            return defaults;
        }
    }

    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> defaults = new TreeMap<>();
        for (String line : Files.readAllLines(REFERENCE)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                assertThat(defaults.put(row.group(1), row.group(2).strip())).as("%s documented twice", row.group(1))
                        .isNull();
            }
        }
        return defaults;
    }
}

package kr.c4i.gateway.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each service's configuration reference in docs/ is what operators read; the code's defaults are the
 * {@code @DefaultValue}s of its properties records, which spring-boot-configuration-processor writes into the
 * service's metadata. The two must agree: every {@code gateway.*} property the service binds is documented with the
 * code's default, and nothing else is. A service binds service-support's properties ({@code gateway.custody.*}) as
 * well as its own.
 */
class ConfigurationReferenceTest {

    // | <a id="gateway.x.y"></a>`gateway.x.y...` | default | meaning |
    private static final Pattern ROW = Pattern.compile("^\\| <a id=\"(gateway\\.[^\"]+)\"></a>.*? \\| (.*?) \\| .* \\|$");

    // One literal in backticks, which a reader takes for the default itself.
    private static final Pattern LITERAL = Pattern.compile("`[^`]*`");

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource({ "db-bridge, configuration.md, gateway.node.id gateway.dds.domain-id gateway.outbox.batch-size",
            "wan-gateway, wan-gateway.md, gateway.wan.site gateway.wan.lan.transport gateway.wan.schedule.floor" })
    void everyGatewayPropertyIsDocumentedWithTheCodesDefaultAndNothingElseIs(String service, String document,
            String someProperties) throws IOException {
        Path reference = Path.of("../docs", document);
        Map<String, Object> code = codeDefaults(service);
        assertThat(code).containsKeys(someProperties.split(" "));
        Map<String, String> documented = documentedDefaults(reference);

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(documented.keySet()).as("gateway.* properties in %s", reference)
                .containsExactlyInAnyOrderElementsOf(code.keySet());
        code.forEach((property, value) -> {
            String cell = documented.get(property);
            if (cell == null) {
                return;
            }
            if (value != null) {
                softly.assertThat(cell).as("default of %s in %s", property, reference).isEqualTo("`" + value + "`");
            }
            else {
                softly.assertThat(LITERAL.matcher(cell).matches())
                        .as("%s has no default in the code, so %s must describe what happens when it is unset "
                                + "rather than give a value: %s", property, reference, cell)
                        .isFalse();
            }
        });
        softly.assertAll();
    }

    /** Every gateway.* property the service binds, with its default or {@code null}: its own and service-support's. */
    private static Map<String, Object> codeDefaults(String service) throws IOException {
        Map<String, Object> defaults = metadataDefaults(service);
        defaults.putAll(metadataDefaults("service-support"));
        return defaults;
    }

    private static Map<String, Object> metadataDefaults(String module) throws IOException {
        List<URL> all = Collections.list(ConfigurationReferenceTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        URL own = all.stream().filter(url -> url.toString().contains("/" + module + "/")
                || url.toString().contains("/" + module + "-")).findFirst()
                .orElseThrow(() -> new AssertionError("no metadata of " + module + " among " + all));
        try (InputStream metadata = own.openStream()) {
            List<Map<String, Object>> properties = JsonPath.read(metadata, "$.properties[*]");
            Map<String, Object> defaults = new TreeMap<>();
            properties.stream().filter(property -> ((String) property.get("name")).startsWith("gateway."))
                    .forEach(property -> defaults.put((String) property.get("name"), property.get("defaultValue")));
            return defaults;
        }
    }

    private static Map<String, String> documentedDefaults(Path reference) throws IOException {
        Map<String, String> defaults = new TreeMap<>();
        for (String line : Files.readAllLines(reference)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                assertThat(defaults.put(row.group(1), row.group(2).strip())).as("%s documented twice", row.group(1))
                        .isNull();
            }
        }
        return defaults;
    }
}

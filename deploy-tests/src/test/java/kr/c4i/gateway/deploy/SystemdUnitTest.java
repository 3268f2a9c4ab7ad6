package kr.c4i.gateway.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The systemd route (deploy/systemd/): its example settings and secrets are properties the node binds. */
class SystemdUnitTest {

    private final ConfigurationMetadata node = ConfigurationMetadata
            .of(Repository.file("db-bridge/target/classes/META-INF/spring-configuration-metadata.json"));

    @Test
    void everySettingOfTheExampleIsAPropertyTheNodeBinds() {
        List<String> properties = new ArrayList<>();
        flatten("", Repository.yaml("deploy/systemd/application.yaml"), properties);
        assertThat(properties).isNotEmpty()
                .allSatisfy(property -> assertThat(node.binds(ConfigurationMetadata.environmentForm(property)))
                        .as("%s binds a property of the node", property).isTrue());
    }

    @Test
    void everySecretOfTheEnvironmentFileIsAVariableTheNodeBinds() {
        List<String> variables = Repository.read(Repository.file("deploy/systemd/node.env.example")).lines()
                .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .map(line -> line.split("=", 2)[0]).toList();
        assertThat(variables).isNotEmpty()
                .allSatisfy(variable -> assertThat(node.binds(variable)).as("%s binds a property", variable).isTrue());
    }

    @Test
    void theUnitStartsTheJarWithTheFlagTheBrokerNeedsAndReadsTheSecretsFromItsEnvironmentFile() {
        List<String> directives = Repository.read(Repository.file("deploy/systemd/c4i-gateway-node.service"))
                .replace("\\\n", " ").lines().filter(line -> !line.startsWith("#")).toList();
        assertThat(directives).anySatisfy(line -> assertThat(line).startsWith("ExecStart=")
                .contains("--sun-misc-unsafe-memory-access=allow", " -jar ").doesNotContainIgnoringCase("password"));
        assertThat(directives).contains("EnvironmentFile=/etc/c4i-gateway/node.env");
    }

    private static void flatten(String prefix, Map<String, Object> yaml, List<String> properties) {
        yaml.forEach((key, value) -> {
            String name = prefix.isEmpty() ? key : prefix + "." + key;
            if (value instanceof Map<?, ?>) {
                flatten(name, Repository.map(value), properties);
            }
            else {
                properties.add(name);
            }
        });
    }
}

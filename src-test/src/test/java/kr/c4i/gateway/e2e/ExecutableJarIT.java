package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;

/** What an operator's {@code java -jar} of the deployed node relies on, read from the built jar itself. */
class ExecutableJarIT {

    @Test
    void theManifestGrantsNativeAccessSoJavaDashJarNeedsNoFlagForDds() throws IOException {
        Path jar = Path.of(System.getProperty("gateway.bridge.jar", "../db-bridge/target/db-bridge-exec.jar"));
        try (JarFile file = new JarFile(jar.toFile())) {
            Attributes main = file.getManifest().getMainAttributes();
            assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
            assertThat(main.getValue("Start-Class")).isEqualTo("kr.c4i.gateway.bridge.DbBridgeApplication");
        }
    }
}

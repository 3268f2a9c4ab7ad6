package kr.c4i.gateway.wan.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.InstantSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.wan.schedule.NanoClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class PolicyFileTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final String DENY_OPORD = """
            rules:
              - deny: OPORD
            """;

    @TempDir
    Path dir;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private PolicyFile policy;

    @AfterEach
    void close() {
        if (this.policy != null) {
            this.policy.close();
        }
    }

    @Test
    void aChangedFileIsPutInForceWithoutARestart() throws IOException {
        Path file = write(DENY_OPORD);
        this.policy = open(file);
        assertThat(this.policy.get().allows("OPORD")).isFalse();
        this.policy.start(Duration.ofMillis(20));

        write("""
                rules:
                  - deny: SITREP
                """);

        await().atMost(Duration.ofSeconds(10)).until(() -> !this.policy.get().allows("SITREP"));
        assertThat(this.policy.get().allows("OPORD")).isTrue();
        assertThat(reloads("applied")).isEqualTo(1);
    }

    @Test
    void aBrokenFileKeepsThePreviousPolicyAndIsCountedOnce() throws IOException {
        Path file = write(DENY_OPORD);
        this.policy = open(file);
        this.policy.start(Duration.ofMillis(20));

        write("""
                rules:
                  - deny: OPROD
                """);

        await().atMost(Duration.ofSeconds(10)).until(() -> reloads("failed") == 1);
        assertThat(this.policy.get().allows("OPORD")).isFalse();

        write("""
                rules:
                  - deny: [OPORD, FRAGO]
                """);
        await().atMost(Duration.ofSeconds(10)).until(() -> !this.policy.get().allows("FRAGO"));
        assertThat(reloads("failed")).as("the same broken version is counted once").isEqualTo(1);
    }

    @Test
    void aFileThatDisappearsKeepsThePreviousPolicy() throws IOException {
        Path file = write(DENY_OPORD);
        this.policy = open(file);

        Files.delete(file);

        assertThat(this.policy.check()).isFalse();
        assertThat(this.policy.get().allows("OPORD")).isFalse();
        assertThat(reloads("failed")).isEqualTo(1);
    }

    @Test
    void anUnchangedFileIsNotReadAgain() throws IOException {
        Path file = write(DENY_OPORD);
        this.policy = open(file);
        RelayPolicy first = this.policy.get();

        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(0));

        assertThat(this.policy.check()).isFalse();
        assertThat(this.policy.get()).isSameAs(first);
    }

    @Test
    void aGatewayDoesNotStartOnABrokenOrMissingFile() throws IOException {
        Path broken = write("rules: [ { deny: NOSUCHTYPE } ]");
        assertThatExceptionOfType(PolicyException.class).isThrownBy(() -> open(broken))
            .withMessageContaining("line 1").withMessageContaining("NOSUCHTYPE");
        assertThatIllegalStateException().isThrownBy(() -> open(this.dir.resolve("missing.yaml")))
            .withMessageContaining("gateway.wan.policy.file");
    }

    @Test
    void withoutAFileEverythingIsRelayed() {
        this.policy = open(null);
        assertThat(CATALOGUE.ids()).allMatch(this.policy.get()::allows);
        assertThat(this.policy.check()).isFalse();
    }

    private PolicyFile open(Path file) {
        return new PolicyFile(file, CATALOGUE, this.registry, NanoClock.SYSTEM, InstantSource.system());
    }

    /** Replaces the policy file at once, as an editor or a configuration map does, so no half file is ever read. */
    private Path write(String yaml) throws IOException {
        Path file = this.dir.resolve("policy.yaml");
        Path next = Files.writeString(Files.createTempFile(this.dir, "policy", ".tmp"), yaml);
        return Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private double reloads(String outcome) {
        return this.registry.get(MetricNames.WAN_POLICY_RELOADS).tag(MetricNames.TAG_OUTCOME, outcome).counter()
            .count();
    }
}

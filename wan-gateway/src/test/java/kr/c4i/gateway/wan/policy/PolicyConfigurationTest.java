package kr.c4i.gateway.wan.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withUserConfiguration(Properties.class, PolicyConfiguration.class);

    @TempDir
    Path dir;

    @Test
    void withoutAFileThePolicyAllowsEverything() {
        this.runner.run((context) -> assertThat(context.getBean(PolicyFile.class).get().allows("OPORD")).isTrue());
    }

    @Test
    void theConfiguredFileIsTheStartingPolicy() throws IOException {
        Path file = Files.writeString(this.dir.resolve("policy.yaml"), "rules:\n  - deny: OPORD\n");
        this.runner.withPropertyValues("gateway.wan.policy.file=" + file, "gateway.wan.policy.check-interval=1m")
            .run((context) -> assertThat(context.getBean(PolicyFile.class).get().allows("OPORD")).isFalse());
    }

    @Test
    void aBrokenFileStopsTheStartNamingItsLine() throws IOException {
        Path file = Files.writeString(this.dir.resolve("policy.yaml"), "rules:\n  - deny: OPROD\n");
        this.runner.withPropertyValues("gateway.wan.policy.file=" + file).run((context) -> assertThat(context)
            .hasFailed().getFailure().rootCause().hasMessageContaining("line 2: pattern 'OPROD'"));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(PolicyProperties.class)
    static class Properties {
    }
}

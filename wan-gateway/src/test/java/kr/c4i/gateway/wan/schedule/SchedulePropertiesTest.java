package kr.c4i.gateway.wan.schedule;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulePropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withUserConfiguration(Properties.class);

    @Test
    void defaultsAreAFivePercentFloorAnd256KbitPerSecondWithHalfASecondInFlight() {
        this.runner.run((context) -> {
            ScheduleProperties properties = context.getBean(ScheduleProperties.class);
            assertThat(properties).isEqualTo(new ScheduleProperties(0.05, 1500, 256_000, 1400, Duration.ofMillis(500)));
            assertThat(properties.pacer(NanoClock.SYSTEM).windowBytes()).isEqualTo(16_000);
        });
    }

    @Test
    void aFloorThatWouldStarveFlashStopsTheStart() {
        this.runner.withPropertyValues("gateway.wan.schedule.floor=0.4").run((context) -> assertThat(context)
            .hasFailed().getFailure().rootCause().hasMessageContaining("gateway.wan.schedule.floor"));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(ScheduleProperties.class)
    static class Properties {
    }
}

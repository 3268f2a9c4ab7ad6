package kr.c4i.gateway.wan.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

import kr.c4i.gateway.wan.store.StoreLimits;

class WanPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Properties.class);

    @Test
    void theStoresDefaultTiersAreStoreLimitsDefaults() {
        this.runner.run(context -> assertThat(context.getBean(WanProperties.class).store().limits())
                .isEqualTo(StoreLimits.of(DataSize.ofMegabytes(256).toBytes())));
    }

    @Test
    void theStoresSettingsMakeItsLimits() {
        this.runner.withPropertyValues("gateway.wan.store.max-size=10MB", "gateway.wan.store.routine-percent=50",
                "gateway.wan.store.priority-percent=60", "gateway.wan.store.immediate-percent=70",
                "gateway.wan.store.flash-percent=99")
                .run(context -> assertThat(context.getBean(WanProperties.class).store().limits())
                        .isEqualTo(new StoreLimits(10L * 1024 * 1024, 50, 60, 70, 99)));
    }

    @Test
    void aNegativeCacheSizeIsNamedByItsProperty() {
        this.runner.withPropertyValues("gateway.wan.store.cache-size=-1MB")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("gateway.wan.store.cache-size"));
        this.runner.withPropertyValues("gateway.wan.store.cache-size=0B")
                .run(context -> assertThat(context.getBean(WanProperties.class).store().cacheSize())
                        .isEqualTo(DataSize.ofBytes(0)));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WanProperties.class)
    static class Properties {
    }
}

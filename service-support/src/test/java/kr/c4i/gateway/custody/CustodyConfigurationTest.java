package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.jdbc.DatabaseOwner;

/** Which custody beans a service gets, and what the user may replace; no bean connects on creation. */
class CustodyConfigurationTest {

    @Configuration(proxyBeanMethods = false)
    static class Service {

        @Bean
        DataSource dataSource() {
            return new PGSimpleDataSource();
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Owner {

        @Bean
        DatabaseOwner databaseOwner() {
            return new DatabaseOwner("node", "a", "gateway.node.id");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnPruner {

        @Bean
        CustodyPruner ownPruner(DataSource dataSource, MeterRegistry registry) {
            return new CustodyPruner(dataSource, new CustodyProperties(true, Duration.ofDays(1), 10,
                    Duration.ofSeconds(1), true), registry);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Service.class).withConfiguration(AutoConfigurations.of(CustodyConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=custody,reports");

    @Test
    void aServiceThatOwnsADatabaseGetsThePrunerTheMergerTheEndpointsAndTheDocumentedDefaults() {
        runner.withUserConfiguration(Owner.class).run(context -> {
            assertThat(context).hasSingleBean(CustodyPruner.class).hasSingleBean(CustodyIndexMerger.class)
                    .hasSingleBean(CustodyEndpoint.class).hasSingleBean(DeliveryReportsEndpoint.class);
            assertThat(context.getBean(CustodyProperties.class)).isEqualTo(new CustodyProperties(true,
                    Duration.ofDays(7), 1_000_000, Duration.ofMinutes(1), true));
        });
    }

    @Test
    void withoutADatabaseOfItsOwnThereIsNoCustodyLog() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(CustodyPruner.class)
                .doesNotHaveBean(CustodyIndexMerger.class).doesNotHaveBean(CustodyEndpoint.class)
                .doesNotHaveBean(DeliveryReportsEndpoint.class));
    }

    @Test
    void theUsersPrunerWins() {
        runner.withUserConfiguration(Owner.class, OwnPruner.class).run(context -> assertThat(context)
                .hasSingleBean(CustodyPruner.class).getBean(CustodyPruner.class)
                .isSameAs(context.getBean("ownPruner")));
    }

    @Test
    void theEndpointsAreThereOnlyWhenExposed() {
        new ApplicationContextRunner().withUserConfiguration(Service.class, Owner.class)
                .withConfiguration(AutoConfigurations.of(CustodyConfiguration.class))
                .run(context -> assertThat(context).hasSingleBean(CustodyPruner.class)
                        .doesNotHaveBean(CustodyEndpoint.class).doesNotHaveBean(DeliveryReportsEndpoint.class));
    }

    @Test
    void aBoundBelowOneRowStopsTheStartNamingTheProperty() {
        runner.withUserConfiguration(Owner.class).withPropertyValues("gateway.custody.max-rows=0")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.custody.max-rows must be at least 1, was 0"));
    }
}

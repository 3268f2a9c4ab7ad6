package kr.c4i.gateway.bridge.report;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import kr.c4i.gateway.bridge.config.InvalidPropertiesException;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * Delivery reports, when {@code gateway.reports.gateway} names this site's WAN gateway or {@code gateway.reports.nodes}
 * nodes of this site: a node that names neither asks no one.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(ReportConfiguration.AnySource.class)
class ReportConfiguration {

    static final class AnySource extends AnyNestedCondition {

        AnySource() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty("gateway.reports.gateway")
        static final class Gateway {
        }

        @ConditionalOnProperty("gateway.reports.nodes")
        static final class Nodes {
        }
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    DeliveryReportPuller deliveryReportPuller(ReportProperties properties, NodeId node, DataSource dataSource,
            KmtfCatalogue catalogue, MeterRegistry registry, Environment environment) {
        List<String> unknown = properties.types().stream().filter(t -> catalogue.find(t).isEmpty()).sorted().toList();
        if (!unknown.isEmpty()) {
            // As every refused gateway.* property: one line naming it, its value and where it was set.
            throw InvalidPropertiesException.of(InvalidSettingsException.of("types",
                    "names types the catalogue does not define: " + unknown), "gateway.reports", Map.of(), environment);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return new DeliveryReportPuller(properties, node, new DeliveryReportStore(dataSource), client, registry);
    }
}

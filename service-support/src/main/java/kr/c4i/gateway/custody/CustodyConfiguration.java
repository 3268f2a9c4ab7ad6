package kr.c4i.gateway.custody;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import kr.c4i.gateway.jdbc.DatabaseOwner;

/**
 * The custody log's settings, its pruner, its index's merger and its endpoints (a message's trail, a node's delivery
 * reports), for a service that owns a database (a node's interface database, a site's relay store: its
 * {@link DatabaseOwner}). Each service makes its own {@link CustodyLog}, which knows its hop and its link, from
 * {@link CustodyProperties}.
 */
@AutoConfiguration
@ConditionalOnBean(DatabaseOwner.class)
@EnableConfigurationProperties(CustodyProperties.class)
public final class CustodyConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CustodyPruner custodyPruner(DataSource dataSource, CustodyProperties properties, MeterRegistry registry) {
        return new CustodyPruner(dataSource, properties, registry);
    }

    @Bean
    @ConditionalOnMissingBean
    CustodyIndexMerger custodyIndexMerger(DataSource dataSource, MeterRegistry registry) {
        return new CustodyIndexMerger(dataSource, registry);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(CustodyEndpoint.class)
    CustodyEndpoint custodyEndpoint(DataSource dataSource) {
        return new CustodyEndpoint(dataSource);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(DeliveryReportsEndpoint.class)
    DeliveryReportsEndpoint deliveryReportsEndpoint(DataSource dataSource, DatabaseOwner owner) {
        return new DeliveryReportsEndpoint(new DeliveryReports(dataSource, owner));
    }
}

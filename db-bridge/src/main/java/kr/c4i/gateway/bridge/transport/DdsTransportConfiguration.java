package kr.c4i.gateway.bridge.transport;

import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import io.micrometer.core.instrument.MeterRegistry;

import kr.c4i.gateway.bridge.config.DdsProperties;
import kr.c4i.gateway.bridge.config.InvalidPropertiesException;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/** {@code gateway.node.transport=dds}: a DDS topic per KMTF type, receipts back to the sender. */
@AutoConfiguration
@ConditionalOnProperty(name = "gateway.node.transport", havingValue = "dds")
public final class DdsTransportConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DdsTransportConfiguration.class);

    /** The settings whose property is not named after them. */
    private static final Map<String, String> RENAMES = Map.of("vendorConfig", "gateway.dds.config");

    @Bean
    @ConditionalOnMissingBean
    DdsTransportSettings ddsTransportSettings(DdsProperties dds, NodeId node, Environment environment) {
        try {
            DdsTransportSettings settings = dds.transportSettings(node);
            if (settings.participant().security() == null) {
                log.warn("DDS runs without DDS Security (gateway.dds.security.plain=true): any participant of domain "
                        + "{} can read and write every topic", settings.participant().domainId());
            }
            return settings;
        }
        catch (InvalidSettingsException ex) {
            throw InvalidPropertiesException.of(ex, "gateway.dds", RENAMES, environment);
        }
    }

    @Bean
    @ConditionalOnMissingBean(Transport.class)
    DdsTransport ddsTransport(NodeId node, KmtfCatalogue catalogue, RoutingTable routing,
            DdsTransportSettings settings) {
        return new DdsTransport(node, catalogue, routing.subscriptions(node), settings);
    }

    // Only beside the transport above: a Transport bean of the user's own replaces it, and these need a DdsTransport.
    @Bean
    @ConditionalOnBean(DdsTransport.class)
    DdsRouteMatching ddsRouteMatching(DdsTransport transport, NodeId node, KmtfCatalogue catalogue,
            RoutingTable routing, DdsProperties dds) {
        return new DdsRouteMatching(transport, DdsRouteMatching.expectedReaders(node, catalogue, routing),
                dds.matchTimeout());
    }

    @Bean
    @ConditionalOnBean(DdsTransport.class)
    DdsTransportMetrics ddsTransportMetrics(DdsTransport transport, KmtfCatalogue catalogue, MeterRegistry registry) {
        return new DdsTransportMetrics(transport, catalogue, registry);
    }
}

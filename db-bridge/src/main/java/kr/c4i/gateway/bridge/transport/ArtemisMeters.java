package kr.c4i.gateway.bridge.transport;

import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.activemq.artemis.core.config.MetricsConfiguration;
import org.apache.activemq.artemis.core.server.metrics.ActiveMQMetricsPlugin;

import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;

/**
 * The embedded broker's own meters (per queue: messages waiting, added, acknowledged, consumers; per address:
 * memory; the broker's connections and disk use) in the node's registry, so /actuator/prometheus has them as
 * {@code artemis_*}. The JVM's meters stay Spring Boot's alone: Artemis would register the same names again.
 */
final class ArtemisMeters implements ActiveMQMetricsPlugin, EmbeddedBrokerCustomizer {

    private final transient MeterRegistry registry;

    ArtemisMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void customize(org.apache.activemq.artemis.core.config.Configuration configuration) {
        configuration.setMetricsConfiguration(new MetricsConfiguration().setPlugin(this).setJvmMemory(false)
                .setJvmGc(false).setJvmThread(false).setFileDescriptors(false).setProcessor(false).setUptime(false)
                .setLogging(false).setNettyPool(false).setSecurityCaches(false).setExecutorServices(false));
    }

    @Override
    public ActiveMQMetricsPlugin init(Map<String, String> options) {
        return this;
    }

    @Override
    public MeterRegistry getRegistry() {
        return registry;
    }
}

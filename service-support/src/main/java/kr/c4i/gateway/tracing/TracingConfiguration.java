package kr.c4i.gateway.tracing;

import java.io.IOException;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SpanExporters;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The services' {@link MessageTracing}, over the OpenTelemetry SDK Spring Boot configures: off unless
 * {@code gateway.tracing.enabled} (which {@link TracingDefaults} passes on to Boot's own switches). With an OTLP
 * endpoint, Boot's span processor exports to the {@link SpanQueue} on disk, and the queue to Boot's OTLP exporter.
 * Before Boot's tracing configuration, so that what is defined here replaces Boot's.
 */
@AutoConfiguration(before = OpenTelemetryTracingAutoConfiguration.class)
@EnableConfigurationProperties(TracingProperties.class)
public final class TracingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TracingConfiguration.class);

    static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

    @Bean
    @ConditionalOnMissingBean
    MessageTracing messageTracing(TracingProperties properties, ObjectProvider<OpenTelemetry> openTelemetry,
            @Value("${" + ENDPOINT + ":}") String endpoint) {
        if (!properties.enabled()) {
            return MessageTracing.off();
        }
        if (endpoint.isBlank()) {
            log.warn("gateway.tracing.enabled is set, but no collector is ({}): the messages' spans are made and "
                    + "sent nowhere", ENDPOINT);
        }
        return MessageTracing.of(openTelemetry.getObject());
    }

    /**
     * The spans are the messages', and nothing else's: no span per request to the management endpoints (Micrometer's
     * observations), whether tracing is on or off.
     */
    @Bean
    @ConditionalOnMissingBean
    io.micrometer.tracing.Tracer micrometerTracer() {
        return io.micrometer.tracing.Tracer.NOOP;
    }

    /** The queue on disk between Boot's span processor and the collector. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("gateway.tracing.enabled")
    @ConditionalOnProperty(ENDPOINT)
    static class Queued {

        @Bean(destroyMethod = "close")
        SpanQueue spanQueue(TracingProperties properties, ObjectProvider<SpanExporter> collector,
                @Value("${" + ENDPOINT + "}") String endpoint, ObjectProvider<MeterRegistry> registry)
                throws IOException {
            SpanQueue queue = new SpanQueue(properties.queue().directory(), properties.queue().maxSize().toBytes(),
                    collector.orderedStream().toList(), endpoint, registry.getIfAvailable(SimpleMeterRegistry::new));
            queue.start();
            return queue;
        }

        /** Replaces Boot's: its span processor exports to the queue alone. */
        @Bean
        SpanExporters spanExporters(SpanQueue queue) {
            return SpanExporters.of(queue.toDisk());
        }
    }
}

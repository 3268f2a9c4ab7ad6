package kr.c4i.gateway.tracing;

import org.springframework.core.io.ClassPathResource;

import kr.c4i.gateway.management.ShippedDefaults;

/**
 * Spring Boot's OpenTelemetry settings as the services ship them (tracing-defaults.yaml): {@code gateway.tracing.enabled}
 * switches Boot's SDK and trace export, and nothing else of it is on (no OTLP metrics, every message sampled).
 * Behind every other property source, so that each of them can still be set.
 */
public final class TracingDefaults extends ShippedDefaults {

    static final String PROPERTY_SOURCE = "gatewayTracingDefaults";

    public TracingDefaults() {
        super(PROPERTY_SOURCE, new ClassPathResource("tracing-defaults.yaml", TracingDefaults.class));
    }
}

package kr.c4i.gateway.tracing;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

/**
 * Spring Boot's OpenTelemetry settings as the services ship them (tracing-defaults.yaml): {@code gateway.tracing.enabled}
 * switches Boot's SDK and trace export, and nothing else of it is on (no OTLP metrics, every message sampled).
 * Behind every other property source, so that each of them can still be set.
 */
public final class TracingDefaults implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY_SOURCE = "gatewayTracingDefaults";

    private static final Resource DEFAULTS = new ClassPathResource("tracing-defaults.yaml", TracingDefaults.class);

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load(PROPERTY_SOURCE, DEFAULTS)) {
                environment.getPropertySources().addLast(source);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read the tracing defaults " + DEFAULTS, e);
        }
    }

    /** After application.yaml and the other config data are in the environment, so that these go behind them. */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}

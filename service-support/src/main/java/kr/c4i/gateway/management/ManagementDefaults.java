package kr.c4i.gateway.management;

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
 * The management settings every gateway service shares (listener on loopback, the endpoints exposed, probes,
 * health details only with the credential, the health status order), from {@code management-defaults.yaml}
 * beside this class. They rank below every other property source, so a service's application.yaml, the
 * environment and the command line each override them. The port is each service's own.
 */
public final class ManagementDefaults implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY_SOURCE = "gatewayManagementDefaults";

    private static final Resource DEFAULTS = new ClassPathResource("management-defaults.yaml",
            ManagementDefaults.class);

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load(PROPERTY_SOURCE, DEFAULTS)) {
                environment.getPropertySources().addLast(source);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read the management defaults " + DEFAULTS, e);
        }
    }

    /** After application.yaml and the other config data are in the environment, so that these go behind them. */
    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}

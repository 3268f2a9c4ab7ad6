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
import org.springframework.core.io.Resource;

/**
 * Settings every gateway service ships, from a YAML file of the library: added behind every other property source,
 * so a service's application.yaml, the environment and the command line each override them.
 */
public abstract class ShippedDefaults implements EnvironmentPostProcessor, Ordered {

    private final String sourceName;
    private final Resource defaults;

    protected ShippedDefaults(String sourceName, Resource defaults) {
        this.sourceName = sourceName;
        this.defaults = defaults;
    }

    @Override
    public final void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load(sourceName, defaults)) {
                environment.getPropertySources().addLast(source);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read the shipped defaults " + defaults, e);
        }
    }

    /** After application.yaml and the other config data are in the environment, so that these go behind them. */
    @Override
    public final int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}

package kr.c4i.gateway.bridge.config;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

import kr.c4i.gateway.core.transport.InvalidSettingsException;

/**
 * {@code gateway.*} properties that a transport refused, each named as the operator writes it
 * ({@code gateway.dds.domain-id}), with the value as written and where it came from; {@code PropertiesFailureAnalyzer}
 * tells the operator.
 */
public final class InvalidPropertiesException extends RuntimeException {

    private final List<InvalidProperty> properties;

    InvalidPropertiesException(List<InvalidProperty> properties, Throwable cause) {
        super("Invalid gateway properties: " + properties.stream().map(InvalidProperty::toString)
                .collect(Collectors.joining("; ")), cause);
        this.properties = List.copyOf(properties);
    }

    /**
     * The properties behind a transport's refusal.
     *
     * @param prefix the properties' prefix, e.g. {@code gateway.dds}
     * @param renames a setting whose property is not the setting's own name in dashed form under {@code prefix}, to
     *        the property's full name
     * @param environment where to find each property's value and origin
     */
    public static InvalidPropertiesException of(InvalidSettingsException refusal, String prefix,
            Map<String, String> renames, Environment environment) {
        List<InvalidProperty> properties = refusal.problems().stream().map(problem -> {
            String name = renames.getOrDefault(problem.setting(),
                    prefix + "." + DataObjectPropertyName.toDashedForm(problem.setting()));
            ConfigurationProperty property = find(environment, name);
            return new InvalidProperty(name, property != null ? property.getValue() : null,
                    property != null ? property.getOrigin() : null, problem.message());
        }).toList();
        return new InvalidPropertiesException(properties, refusal);
    }

    public List<InvalidProperty> properties() {
        return properties;
    }

    private static @Nullable ConfigurationProperty find(Environment environment, String name) {
        if (!ConfigurationPropertyName.isValid(name)) {
            return null;
        }
        ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty property = source.getConfigurationProperty(key);
            if (property != null) {
                return property;
            }
        }
        return null;
    }

    /**
     * @param name the property as the operator writes it, e.g. {@code gateway.dds.domain-id}
     * @param value its value as written, {@code null} when it was not set (its default, or its absence, was refused)
     * @param origin where it was set: a file and line, the command line, an environment variable
     * @param reason what is wrong with it
     */
    public record InvalidProperty(String name, @Nullable Object value, @Nullable Origin origin, String reason) {

        @Override
        public String toString() {
            return name + "=" + (value != null ? value : "(not set)") + (origin != null ? " (" + origin + ")" : "")
                    + ": " + reason;
        }
    }
}

package kr.c4i.gateway.bridge.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import kr.c4i.gateway.bridge.config.InvalidPropertiesException.InvalidProperty;

/** A refused {@code gateway.*} value is reported by its property, its value and where it was set. */
final class PropertiesFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidPropertiesException cause) {
        StringBuilder description = new StringBuilder("Invalid gateway properties:\n");
        for (InvalidProperty property : cause.properties()) {
            Object value = property.value();
            description.append("\n    Property: ").append(property.name()).append("\n    Value: ")
                    .append(value != null ? "\"" + value + "\"" : "(not set)");
            if (property.origin() != null) {
                description.append("\n    Origin: ").append(property.origin());
            }
            description.append("\n    Reason: ").append(property.reason()).append('\n');
        }
        return new FailureAnalysis(description.toString(), "Correct the value of each property above where it was "
                + "set; docs/configuration.md lists every gateway.* property with its range and default.", cause);
    }
}

package kr.c4i.gateway.wan.config;

import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

import kr.c4i.gateway.core.transport.InvalidSettingsException;

/** An adapter's refusal of settings, told as the {@code gateway.wan.*} properties the operator wrote. */
public final class InvalidProperties {

    private InvalidProperties() {
    }

    /**
     * @param prefix the properties the settings came from, e.g. {@code gateway.wan.lan.dds}: a refused setting
     *        {@code security.privateKey} is named {@code gateway.wan.lan.dds.security.private-key}
     * @return an exception naming each refused property and why, the refusal as its cause
     */
    public static IllegalArgumentException of(String prefix, InvalidSettingsException refusal) {
        return new IllegalArgumentException("Invalid " + prefix + " properties: " + refusal.problems().stream()
                .map((problem) -> prefix + "." + DataObjectPropertyName.toDashedForm(problem.setting()) + ": "
                        + problem.message())
                .collect(Collectors.joining("; ")), refusal);
    }
}

package kr.c4i.gateway.tools.embedded;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads Spring-style {@code --key=value} arguments handed through the command line. */
final class EmbeddedProperties {

    static Map<String, Object> parse(List<String> arguments) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            if (!argument.startsWith("--") || equals < 3) {
                throw new IllegalArgumentException("Bridge property '" + argument + "' must look like --key=value");
            }
            properties.put(argument.substring(2, equals), argument.substring(equals + 1));
        }
        return properties;
    }

    private EmbeddedProperties() {
    }
}

package kr.c4i.gateway.jms;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where a node's Artemis broker runs. */
public enum BrokerMode {

    /** An Artemis broker inside the gateway process, persistent under the configured data directory. */
    EMBEDDED,

    /** A broker run elsewhere, reached through {@link JmsTransportSettings#brokerUrl()}. */
    EXTERNAL;

    /**
     * Reads a mode as operators write it, in any case.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static BrokerMode parse(String text) {
        for (BrokerMode mode : values()) {
            if (mode.label().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Invalid broker mode '" + text + "': use one of "
                + Arrays.stream(values()).map(BrokerMode::label).collect(Collectors.joining(", ")));
    }

    /** The lower-case name used in settings, logs and health details. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

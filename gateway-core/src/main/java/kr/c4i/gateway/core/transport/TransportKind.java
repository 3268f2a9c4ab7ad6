package kr.c4i.gateway.core.transport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The transports the gateway runs; {@code gateway.node.transport} chooses one per node. Its {@link #label()} is the
 * one spelling everywhere outside Java: property values, the {@code transport} metric tag, logs, health details and
 * the scenario harness's result files and reports.
 */
public enum TransportKind {

    /** Point-to-point JMS over ActiveMQ Artemis, a broker per node. */
    JMS,

    /** A DDS topic per KMTF type over Cyclone DDS. */
    DDS;

    /** The lower-case name, e.g. {@code jms}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a label in any case.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static TransportKind parse(String text) {
        for (TransportKind kind : values()) {
            if (kind.label().equalsIgnoreCase(text.strip())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a transport; use "
                + Arrays.stream(values()).map(TransportKind::label).collect(Collectors.joining(" or ")));
    }

    /** The {@link #label()}, so that logs and messages read as they always have. */
    @Override
    public String toString() {
        return label();
    }
}

package kr.c4i.gateway.jms;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What an embedded broker is configured as in a primary/backup pair (see {@link JmsTransportSettings.Pair}). */
public enum PairRole {

    /** The broker that is active when both start; its journal is replicated to the backup. */
    PRIMARY,

    /** The broker that copies the primary's journal and becomes active when the primary is lost. */
    BACKUP;

    /**
     * Reads a role as operators write it, in any case.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static PairRole parse(String text) {
        for (PairRole role : values()) {
            if (role.label().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return role;
            }
        }
        throw new IllegalArgumentException("Invalid pair role '" + text + "': use one of "
                + Arrays.stream(values()).map(PairRole::label).collect(Collectors.joining(", ")));
    }

    /** The role of the other broker of the pair. */
    public PairRole partner() {
        return (this == PRIMARY) ? BACKUP : PRIMARY;
    }

    /** The lower-case name used in settings, logs and health details. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

package kr.c4i.gateway.kmtf.catalogue;

/**
 * How long a message outlives its sending: the four levels of the DDS durability QoS, so that a late-joining node
 * can be given the recent history of the types that need it.
 */
public enum Durability {

    VOLATILE,
    TRANSIENT_LOCAL,
    TRANSIENT,
    PERSISTENT;

    /**
     * Reads a durability in any case, with {@code -} accepted for {@code _}.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Durability parse(String text) {
        return EnumLabels.parse(Durability.class, "durability", text);
    }

    /** The lower-case name used in the catalogue file. */
    public String label() {
        return EnumLabels.label(this);
    }
}

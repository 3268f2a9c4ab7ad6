package kr.c4i.gateway.kmtf.catalogue;

/**
 * Whether a lost message must be repaired. Maps one to one onto the DDS reliability QoS; the JMS transport treats
 * BEST_EFFORT types as non-persistent.
 */
public enum Reliability {

    RELIABLE,
    BEST_EFFORT;

    /**
     * Reads a reliability in any case, with {@code -} accepted for {@code _}.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Reliability parse(String text) {
        return EnumLabels.parse(Reliability.class, "reliability", text);
    }

    /** The lower-case name used in the catalogue file. */
    public String label() {
        return EnumLabels.label(this);
    }
}

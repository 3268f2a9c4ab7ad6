package kr.c4i.gateway.kmtf.catalogue;

/**
 * How urgently a message must be handled, in the four levels that military message handling has always used.
 * The order of the constants is the order of urgency, so {@code compareTo} ranks FLASH first.
 */
public enum Precedence {

    FLASH('Z'),
    IMMEDIATE('O'),
    PRIORITY('P'),
    ROUTINE('R');

    private final char prosign;

    Precedence(char prosign) {
        this.prosign = prosign;
    }

    /**
     * Reads a precedence as operators write it: the name in any case, or the single prosign letter (Z, O, P, R) used
     * in message headers.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Precedence parse(String text) {
        if (text != null && text.strip().length() == 1) {
            char letter = Character.toUpperCase(text.strip().charAt(0));
            for (Precedence precedence : values()) {
                if (precedence.prosign == letter) {
                    return precedence;
                }
            }
        }
        try {
            return EnumLabels.parse(Precedence.class, "precedence", text);
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(ex.getMessage() + " (or the prosign letters z, o, p, r)");
        }
    }

    /** The prosign letter, for headers and compact logs. */
    public char prosign() {
        return this.prosign;
    }

    /** The lower-case name used in the catalogue file. */
    public String label() {
        return EnumLabels.label(this);
    }
}

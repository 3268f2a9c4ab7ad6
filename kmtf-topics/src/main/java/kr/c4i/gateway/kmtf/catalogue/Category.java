package kr.c4i.gateway.kmtf.catalogue;

/**
 * The functional area a message type belongs to. It groups topics ({@code kmtf/<category>/<ID>}) so that DDS
 * partitions and routing rules can select a whole area at once.
 */
public enum Category {

    OPERATIONS,
    INTELLIGENCE,
    FIRES,
    AIR,
    MARITIME,
    LOGISTICS,
    CBRN,
    PERSONNEL,
    COMMUNICATIONS,
    ENGINEER,
    MEDICAL,
    METOC,
    ADMINISTRATION;

    /**
     * Reads a category in any case.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static Category parse(String text) {
        return EnumLabels.parse(Category.class, "category", text);
    }

    /** The lower-case name used in the catalogue file and in topic names. */
    public String label() {
        return EnumLabels.label(this);
    }
}

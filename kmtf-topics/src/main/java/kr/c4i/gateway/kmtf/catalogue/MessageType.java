package kr.c4i.gateway.kmtf.catalogue;

/**
 * One KMTF message type and the delivery contract of its topic. Each component is one column of the catalogue
 * file, checked by the same rule whether it comes from a file or from code.
 *
 * @param id the message text format identifier, as written in the first field of the MSGID set
 * @param title a human-readable title for dashboards and logs
 * @param category the functional area, which groups topics and routing rules
 * @param topicName the DDS topic the type is published on; unique across the catalogue
 * @param reliability whether lost samples are repaired
 * @param historyDepth how many recent messages a writer keeps for repair and for late joiners, 1..1000
 * @param durability whether late-joining readers receive recent history
 * @param defaultPrecedence the precedence used when the originator does not set one
 * @param maxSize the largest accepted message text, in bytes of UTF-8
 */
public record MessageType(String id, String title, Category category, String topicName, Reliability reliability,
        int historyDepth, Durability durability, Precedence defaultPrecedence, int maxSize) {

    /**
     * @throws IllegalArgumentException naming the first component that breaks its catalogue rule
     */
    public MessageType {
        CatalogueColumns.ID.check(id);
        CatalogueColumns.TITLE.check(title);
        CatalogueColumns.CATEGORY.check(category);
        CatalogueColumns.TOPIC.check(topicName);
        CatalogueColumns.RELIABILITY.check(reliability);
        CatalogueColumns.HISTORY.check(historyDepth);
        CatalogueColumns.DURABILITY.check(durability);
        CatalogueColumns.PRECEDENCE.check(defaultPrecedence);
        CatalogueColumns.MAX_SIZE.check(maxSize);
    }
}

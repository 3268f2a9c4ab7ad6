package kr.c4i.gateway.scenarios.node;

/** The transports a node can run; both run in the same scenario run. */
public enum Transport {

    /** Point-to-point JMS over an Artemis broker per node: the study's "TCP". */
    JMS("jms", "TCP (JMS)"),

    /** A DDS topic per KMTF type over Cyclone DDS: the study's "CoreDDS". */
    DDS("dds", "CoreDDS");

    private final String key;
    private final String studyLabel;

    Transport(String key, String studyLabel) {
        this.key = key;
        this.studyLabel = studyLabel;
    }

    /** The node's {@code --transport} value and the key in result files. */
    public String key() {
        return key;
    }

    /** How the study's tables name this middleware. */
    public String studyLabel() {
        return studyLabel;
    }

    public static Transport parse(String text) {
        for (Transport t : values()) {
            if (t.key.equalsIgnoreCase(text.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a transport; use jms or dds");
    }
}

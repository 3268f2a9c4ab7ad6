package kr.c4i.gateway.scenarios.experiment;

/** The study's three experiments, and the WAN gateway's. */
public enum ExperimentKind {

    /** Response time when a node recovers after an emergency stop (Table 2, Figure 7). */
    RECOVERY("recovery", "Table 2 / Figure 7"),

    /** Bandwidth one publisher uses for N subscribers (Table 3, Figure 8). */
    FANOUT("fanout", "Table 3 / Figure 8"),

    /** Messages per second under packet loss on slow links (Tables 4-5, Figure 9). */
    LOSS("loss", "Tables 4-5 / Figure 9"),

    /** Two sites joined by their WAN gateways over one impaired link (issue 10; not in the study). */
    WAN("wan", "beyond the study: the WAN gateway");

    private final String key;
    private final String study;

    ExperimentKind(String key, String study) {
        this.key = key;
        this.study = study;
    }

    public String key() {
        return key;
    }

    /** Where the study reports it. */
    public String study() {
        return study;
    }

    public static ExperimentKind parse(String text) {
        for (ExperimentKind kind : values()) {
            if (kind.key.equalsIgnoreCase(text.trim()) || kind.name().equalsIgnoreCase(text.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not an experiment; use recovery, fanout, loss or wan");
    }
}

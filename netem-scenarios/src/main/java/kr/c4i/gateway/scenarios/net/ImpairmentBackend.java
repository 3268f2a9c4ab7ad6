package kr.c4i.gateway.scenarios.net;

/** How links are impaired; which one a run used is in its report. */
public enum ImpairmentBackend {

    /** {@code tc netem rate R loss P limit Q} on the host's eth0, {@code netem rate R} on its switch port. */
    NETEM("tc netem (rate and loss)"),

    /**
     * For kernels without sch_netem: TBF for the rate on both ends of the link, and an nftables
     * {@code numgen random} drop on the netdev ingress hook of the host's switch port (one decision per frame
     * the host sends, ARP exempt).
     */
    TBF_NFTABLES("tc tbf (rate) + nftables numgen random drop in the switch namespace (loss)");

    private final String description;

    ImpairmentBackend(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}

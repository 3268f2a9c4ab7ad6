package kr.c4i.gateway.wan.policy;

import java.util.Locale;

/** Why the gateway dropped a message instead of relaying it; {@link #label()} is the metric's {@code reason} tag. */
public enum DropReason {

    /** A deny rule of the policy matched its type. */
    DENIED,
    /** Its type or category sent more than the policy's rate limit allows. */
    RATE_LIMITED,
    /** It was older than the policy's maximum age for its precedence or type. */
    EXPIRED,
    /** A later report with the same supersede key replaced it while it waited. */
    SUPERSEDED,
    /** Its classification exceeds the clearance of a site (or a node at this site) it was bound for. */
    CLEARANCE;

    /**
     * Lower case with {@code -}: {@code denied}, {@code rate-limited}, {@code expired}, {@code superseded},
     * {@code clearance}.
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

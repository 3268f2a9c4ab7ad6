package kr.c4i.gateway.custody;

import java.util.Locale;
import java.util.Optional;

/** The custody steps the log records; {@link #label()} is how the {@code event} column spells each. */
public enum CustodyEvent {

    /** A node handed the message to its transport: over JMS its broker took custody; over DDS it awaits receipts. */
    SENT,
    /** A node sent the message again to destinations that had not receipted it (DDS). */
    RESENT,
    /** A destination's receipt reached the sending node (DDS): the message is in that destination's inbox. */
    RECEIPTED,
    /** Into this node's inbox; at a gateway, onto its site's LAN, whose nodes took custody. */
    DELIVERED,
    /** Kept in a quarantine table instead of passed on; the detail says why. */
    QUARANTINED,
    /** Not passed to a destination (or not taken here) for want of clearance; the detail says whose. */
    REFUSED,
    /** Stored by a gateway for its next hop: a peer site's gateway, or its own LAN ({@code @lan}). */
    STORED,
    /** The next hop's gateway stored the message and receipted it: this gateway's custody ended. */
    ACKNOWLEDGED,
    /** Left a gateway's store unsent, past its precedence's expiry. */
    EXPIRED,
    /** Left a gateway's store on purpose (superseded, oversize, undeliverable); the detail says why. */
    DROPPED;

    /** The lower-case name, e.g. {@code sent}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The event a log row names, if this version knows it (a newer service may write events it does not). */
    public static Optional<CustodyEvent> find(String label) {
        for (CustodyEvent event : values()) {
            if (event.label().equals(label)) {
                return Optional.of(event);
            }
        }
        return Optional.empty();
    }
}

package kr.c4i.gateway.wan.store;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.custody.CustodyEvent;

/**
 * Why copies leave the store ({@link RelayStore#remove}), as its custody log records it.
 *
 * @param event the custody step: the next hop acknowledged them, this site's LAN took them, they expired, or the
 *        gateway dropped them
 * @param detail why they were dropped; {@code null} otherwise
 */
public record Removal(CustodyEvent event, @Nullable String detail) {

    /** The peer site's gateway stored them and receipted their frame. */
    public static final Removal ACKNOWLEDGED = new Removal(CustodyEvent.ACKNOWLEDGED, null);
    /** This site's nodes took custody of them. */
    public static final Removal DELIVERED = new Removal(CustodyEvent.DELIVERED, null);
    /** Past their precedence's expiry, unsent. */
    public static final Removal EXPIRED = new Removal(CustodyEvent.EXPIRED, null);

    /** Dropped on purpose, e.g. {@code oversize}. */
    public static Removal dropped(String why) {
        return new Removal(CustodyEvent.DROPPED, why);
    }
}

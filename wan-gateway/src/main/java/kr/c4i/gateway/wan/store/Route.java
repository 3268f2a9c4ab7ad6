package kr.c4i.gateway.wan.store;

import java.util.Objects;

import kr.c4i.gateway.core.link.SiteId;

/**
 * Where a stored copy goes next: one peer site's gateway over the WAN, or this site's LAN. Each route has its own
 * backlog in the store.
 */
public sealed interface Route permits Route.Lan, Route.Peer {

    /** This site's LAN: copies that arrived over the WAN for nodes of this site. */
    static Route lan() {
        return Lan.INSTANCE;
    }

    /** One peer site's gateway. */
    static Route peer(SiteId site) {
        return new Peer(site);
    }

    /**
     * Reads a route as {@link #key()} writes it.
     *
     * @throws IllegalArgumentException if it is neither the LAN's key nor a valid site id
     */
    static Route parse(String key) {
        return Lan.KEY.equals(key) ? lan() : peer(SiteId.of(key));
    }

    /**
     * The route as the store's {@code route} column and metric tags hold it: the peer's site id, or {@code @lan},
     * which no site id can be (a site id starts with a letter or digit).
     */
    String key();

    /** This site's LAN. */
    record Lan() implements Route {

        static final String KEY = "@lan";
        static final Lan INSTANCE = new Lan();

        @Override
        public String key() {
            return KEY;
        }

        @Override
        public String toString() {
            return KEY;
        }
    }

    /** A peer site's gateway. */
    record Peer(SiteId site) implements Route {

        public Peer {
            Objects.requireNonNull(site, "site");
        }

        @Override
        public String key() {
            return site.value();
        }

        @Override
        public String toString() {
            return site.value();
        }
    }
}

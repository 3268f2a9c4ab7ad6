package kr.c4i.gateway.wan.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayEngine;
import kr.c4i.gateway.wan.store.StoreStats;

/**
 * Health per side of the gateway. A peer site out of reach or a store refusing ROUTINE is {@code DEGRADED}, not
 * {@code DOWN}: the gateway still stores and relays what it can, and readiness does not depend on another site.
 */
public final class WanHealth {

    /** Worse than UP, better than DOWN: something needs an operator's look, the gateway still works. */
    public static final Status DEGRADED = new Status("DEGRADED");

    private WanHealth() {
    }

    /**
     * The indicator while this gateway relays; while it is the standby of a pair, whose LAN side, link and store are
     * not open, {@code role: standby} with what it runs meanwhile ({@code standingBy}: its brokers of primary/backup
     * pairs): UP when that is ready for a takeover, DEGRADED while it is not (a backup broker that does not yet hold
     * its partner's journal could not take over the leader's messages now). Its peer's health tells of the site.
     */
    public static HealthIndicator whileLeading(HealthIndicator indicator, BooleanSupplier leading,
            Supplier<TransportHealth> standingBy) {
        return () -> {
            if (leading.getAsBoolean()) {
                return indicator.health();
            }
            TransportHealth standby = standingBy.get();
            return Health.status(standby.up() ? Status.UP : DEGRADED).withDetail("role", "standby")
                    .withDetails(standby.details()).build();
        };
    }

    /** The site's LAN: the LAN side's own view (broker, participant). */
    public static HealthIndicator lan(RelayEngine engine) {
        return () -> {
            TransportHealth health = engine.lan().health();
            return (health.up() ? Health.up() : Health.down()).withDetails(health.details()).build();
        };
    }

    /** The WAN link: UP when every peer site is reachable, DEGRADED while any is not. */
    public static HealthIndicator link(RelayEngine engine) {
        return () -> {
            Map<String, Object> peers = new LinkedHashMap<>();
            boolean all = true;
            for (SiteId peer : engine.link().peers()) {
                LinkState state = engine.link().state(peer);
                all &= state == LinkState.UP;
                peers.put(peer.value(), Map.of("state", state.label(), "inFlightBytes", engine.inFlightBytes(peer),
                        "creditBytes", engine.creditBytes(peer)));
            }
            return Health.status(all ? Status.UP : DEGRADED).withDetail("kind", engine.link().kind())
                    .withDetail("peers", peers).withDetail("link", engine.link().details()).build();
        };
    }

    /** The store: UP, DEGRADED once it is full enough to refuse ROUTINE messages. */
    public static HealthIndicator store(RelayEngine engine) {
        return () -> {
            StoreStats stats = engine.store().stats();
            long routineLimit = engine.store().limits().limit(Precedence.ROUTINE);
            return Health.status(stats.bytes() < routineLimit ? Status.UP : DEGRADED).withDetail("bytes", stats.bytes())
                    .withDetail("maxBytes", stats.maxBytes()).withDetail("routineLimitBytes", routineLimit).build();
        };
    }
}

package kr.c4i.gateway.wan.schedule;

import java.time.Duration;
import java.time.InstantSource;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How each route's sender shares and paces the WAN link.
 *
 * @param floor the share of the bytes sent that each lower precedence with copies waiting gets at least while
 *        higher ones keep the link busy (0 for strict precedence, at most 0.25)
 * @param quantumBytes bytes each type with copies waiting may send per round within one precedence (deficit round
 *        robin); smaller is finer-grained fairness, larger fewer rounds
 * @param budgetBitsPerSecond the WAN budget per peer site, bits per second, that the pacer holds the sender to
 * @param burstBytes how far the sender may run ahead of the budget after an idle spell: about one frame (never less
 *        than one frame)
 * @param window the in-flight cap as link time at the budget, on top of the round trip the link measures: bytes sent
 *        to a peer and not yet receipted stay under {@code budget × (window + round trip)}, so a FLASH message never
 *        waits behind more than this inside the link ({@value #DEFAULT_WINDOW}: on a lossy link that much of the
 *        budget takes longer to cross, 0.7 s at 30% loss)
 */
@ConfigurationProperties("gateway.wan.schedule")
public record ScheduleProperties(@DefaultValue("0.05") double floor, @DefaultValue("1500") int quantumBytes,
        @DefaultValue("256000") long budgetBitsPerSecond, @DefaultValue("1400") int burstBytes,
        @DefaultValue(ScheduleProperties.DEFAULT_WINDOW) Duration window) {

    /**
     * Half a second: with a 10 MB ROUTINE backlog at 2 Mbit/s and 30% loss over the norm link, a FLASH message
     * waited 795 ms (p50) and 1,235 ms (p99) behind a window of 1 s, and 220 and 324 ms behind one of 0.5 s, the
     * backlog draining as fast (docs/benchmarks.md, "The norm link").
     */
    public static final String DEFAULT_WINDOW = "500ms";

    public ScheduleProperties {
        if (!(floor >= 0 && floor <= PrecedenceScheduler.MAX_FLOOR)) {
            throw new IllegalArgumentException("gateway.wan.schedule.floor must be between 0 and "
                    + PrecedenceScheduler.MAX_FLOOR + ", was " + floor);
        }
        if (quantumBytes < 1) {
            throw new IllegalArgumentException("gateway.wan.schedule.quantum-bytes must be at least 1, was "
                    + quantumBytes);
        }
        if (budgetBitsPerSecond < 8) {
            throw new IllegalArgumentException("gateway.wan.schedule.budget-bits-per-second must be at least 8, was "
                    + budgetBitsPerSecond);
        }
        if (burstBytes < 1) {
            throw new IllegalArgumentException("gateway.wan.schedule.burst-bytes must be at least 1, was "
                    + burstBytes);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("gateway.wan.schedule.window must be positive, was " + window);
        }
    }

    /** The pacer for one peer site, at these settings. */
    public LinkPacer pacer(NanoClock clock) {
        return new LinkPacer(this.budgetBitsPerSecond, this.burstBytes, this.window, clock);
    }

    /** The scheduler for one route, at these settings, judging expiry by the system clock. */
    public PrecedenceScheduler scheduler(Backlog backlog, ExpiryRule expiry) {
        return new PrecedenceScheduler(backlog, this.floor, this.quantumBytes, expiry, InstantSource.system());
    }
}

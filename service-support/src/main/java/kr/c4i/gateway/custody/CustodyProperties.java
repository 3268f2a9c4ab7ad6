package kr.c4i.gateway.custody;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The custody log every node and gateway keeps of the steps it takes with each message (docs/operator-guide.md,
 * "Where is message X").
 *
 * @param enabled whether custody steps are logged; off, nothing more is written, and what the log holds stays until
 *        pruned
 * @param retention how long a logged step is kept
 * @param maxRows the most rows the log keeps, the oldest deleted first; a row is one step of one batch (a claim, an
 *        inbox transaction, a store transaction) and names every message of it
 * @param pruneInterval how often the log is pruned of what is past its retention or over its bound
 * @param forward at a WAN gateway, whether the steps it takes with messages from other sites are forwarded to the
 *        gateways of their origins' sites (which keep them in their own logs) as a custodied stream at ROUTINE
 */
@ConfigurationProperties("gateway.custody")
public record CustodyProperties(@DefaultValue("true") boolean enabled, @DefaultValue("7d") Duration retention,
        @DefaultValue("1000000") long maxRows, @DefaultValue("1m") Duration pruneInterval,
        @DefaultValue("true") boolean forward) {

    /** @throws IllegalArgumentException naming the property whose value is out of range */
    public CustodyProperties {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("gateway.custody.retention must be positive, was " + retention);
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("gateway.custody.max-rows must be at least 1, was " + maxRows);
        }
        if (pruneInterval.isNegative() || pruneInterval.isZero()) {
            throw new IllegalArgumentException("gateway.custody.prune-interval must be positive, was "
                    + pruneInterval);
        }
    }
}

package kr.c4i.gateway.wan.lan;

import java.util.Map;
import java.util.Set;

/**
 * What became of a batch handed to {@link LanSide#deliver}, each message id in exactly one of the four.
 *
 * @param passed custody passed: every destination node at this site has it durably (or the message has none here);
 *        the engine deletes it from its store
 * @param pending handed over, custody not passed yet: the LAN side keeps sending it until it has, then reports it
 *        through {@link LanIngest#delivered}
 * @param rejected never deliverable as it is (a type this LAN does not carry, too large for its wire), with the
 *        reason; the engine keeps it aside for the operator rather than offering it again
 * @param notTaken not handed over: the LAN was busy (a writer full while this site's nodes catch up) after it took the
 *        rest; the engine offers these again, and only these, since each one taken is on its way
 */
public record LanDelivery(Set<String> passed, Set<String> pending, Map<String, String> rejected, Set<String> notTaken) {

    public LanDelivery {
        passed = Set.copyOf(passed);
        pending = Set.copyOf(pending);
        rejected = Map.copyOf(rejected);
        notTaken = Set.copyOf(notTaken);
    }

    /** A batch the LAN took whole. */
    public LanDelivery(Set<String> passed, Set<String> pending, Map<String, String> rejected) {
        this(passed, pending, rejected, Set.of());
    }
}

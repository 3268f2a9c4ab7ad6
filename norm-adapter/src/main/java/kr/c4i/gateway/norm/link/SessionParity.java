package kr.c4i.gateway.norm.link;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.norm.NormException;
import kr.c4i.gateway.norm.NormSession;

/**
 * The proactive parity of one sending session (a peer's in unicast, the group's in multicast), and the
 * {@linkplain LossReport loss reports} it sends: the peers measure the session's loss on them (and on every other
 * object with info) and tell it back in theirs, and the parity follows that measure ({@link ParityPolicy}), or stays
 * as configured. {@code NormSetAutoParity} may be called on a running sender (NORM suspends its thread for it) and
 * applies to each block NORM starts sending after it: here every frame not yet on the wire. Reports are sent on the
 * link's event thread only.
 */
final class SessionParity {

    private static final Logger log = LoggerFactory.getLogger(SessionParity.class);

    private final NormSession session;
    private final @Nullable ParityPolicy policy;
    private final double rateBitsPerSecond;
    private final String name;
    private volatile int segments;
    private long nextReportNanos;

    /**
     * @param name what the log calls the session's frames, e.g. "frames of site s1 to s2"
     */
    SessionParity(NormSession session, NormLinkSettings settings, double rateBitsPerSecond, String name) {
        this.session = session;
        Integer fixed = settings.autoParity();
        this.policy = fixed == null ? new ParityPolicy(settings.paritySegments(), settings.parityTargetPercent() / 100)
                : null;
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.name = name;
        this.segments = fixed == null ? 0 : fixed;
        this.nextReportNanos = System.nanoTime();
        session.setAutoParity(this.segments);
    }

    /** Parity segments sent with every frame now. */
    int segments() {
        return this.segments;
    }

    /** The peers measured {@code loss} (0 to 1) of this session's packets: adaptive parity follows it. */
    void measured(double loss) {
        if (this.policy == null) {
            return;
        }
        int next = this.policy.next(this.segments, loss);
        if (next != this.segments) {
            this.session.setAutoParity(next);
            log.info("norm WAN link: {} now go with {} parity segments each, was {} (loss measured {}%)", this.name,
                    next, this.segments, Math.round(loss * 1000) / 10.0);
            this.segments = next;
        }
    }

    /** Sends a report with {@code tallies} when one is due; a full transmit cache puts it off. */
    void report(long nowNanos, List<LossReport.Tally> tallies) {
        if (nowNanos - this.nextReportNanos < 0) {
            return;
        }
        byte[] report = new LossReport(tallies).bytes();
        try {
            this.session.enqueue(LossReport.DATA, report);
        }
        catch (NormException | IllegalStateException ex) {
            return;
        }
        this.nextReportNanos = nowNanos
                + LossReport.intervalNanos(report.length, this.segments, this.rateBitsPerSecond);
    }
}

package kr.c4i.gateway.norm.link;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.NormException;
import kr.c4i.gateway.norm.NormSession;

/**
 * The proactive parity of one sending session (a peer's in unicast, the group's in multicast), and the
 * {@linkplain LossReport loss reports} it sends: the peers measure the session's loss on them (and on every other
 * object with info) and tell it back in theirs, and the parity follows that measure ({@link ParityPolicy}), or stays
 * as configured.
 *
 * <p><b>Urgent frames only.</b> Parity goes with the frames of {@link NormLinkSettings#parityPrecedence} or more
 * urgent messages; the others are repaired on request, which costs a lost packet one repair where k parity segments
 * cost every packet k. NORM's auto parity is the session's, and {@code NormSetAutoParity} (which may be called on a
 * running sender: NORM suspends its thread for it) applies to each block NORM starts sending after it. So an urgent
 * frame sets the parity before it is handed to NORM, and once NORM has sent the last urgent frame it holds, the
 * parity goes back to none: the frames queued just before an urgent one (at most the gateway's short link queue)
 * get parity too. Reports are sent on the link's event thread only.
 */
final class SessionParity {

    private static final Logger log = LoggerFactory.getLogger(SessionParity.class);

    private final NormSession session;
    private final @Nullable ParityPolicy policy;
    private final double rateBitsPerSecond;
    private final String name;
    private final boolean everyFrame;
    // The urgent frames' objects NORM has not sent once yet: while there is one, the session sends parity.
    private final Set<Long> urgentUnsent = new HashSet<>();
    private volatile int segments;
    private volatile int applied;
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
        this.everyFrame = settings.parityPrecedence() == Precedence.ROUTINE;
        this.segments = fixed == null ? 0 : fixed;
        this.nextReportNanos = System.nanoTime();
        this.applied = base();
        session.setAutoParity(this.applied);
    }

    /** Parity segments an urgent frame goes with now. */
    int segments() {
        return this.segments;
    }

    /** Parity segments the session sends with each block it starts now. */
    int applied() {
        return this.applied;
    }

    /** Hands a frame to NORM through {@code enqueue}, with parity when it is {@code urgent}. */
    synchronized long enqueue(boolean urgent, LongSupplier enqueue) {
        if (urgent) {
            apply(this.segments);
        }
        long object;
        try {
            object = enqueue.getAsLong();
        }
        catch (RuntimeException ex) {
            // NORM did not take it: parity stays only for the urgent frames it holds.
            if (this.urgentUnsent.isEmpty()) {
                apply(base());
            }
            throw ex;
        }
        if (urgent && !this.everyFrame) {
            this.urgentUnsent.add(object);
        }
        return object;
    }

    /** NORM sent {@code object} once, or it was cancelled: the last urgent frame out takes the parity with it. */
    synchronized void leftQueue(long object) {
        if (this.urgentUnsent.remove(object) && this.urgentUnsent.isEmpty()) {
            apply(base());
        }
    }

    /** The peers measured {@code loss} (0 to 1) of this session's packets: adaptive parity follows it. */
    synchronized void measured(double loss) {
        if (this.policy == null) {
            return;
        }
        int next = this.policy.next(this.segments, loss);
        if (next != this.segments) {
            log.info("norm WAN link: {} now go with {} parity segments each when {} (was {}; the loss it follows {}%)",
                    this.name, next, this.everyFrame ? "sent" : "urgent", this.segments,
                    Math.round(loss * 1000) / 10.0);
            this.segments = next;
            apply(this.everyFrame || !this.urgentUnsent.isEmpty() ? next : 0);
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
                + LossReport.intervalNanos(report.length, this.applied, this.rateBitsPerSecond);
    }

    private int base() {
        return this.everyFrame ? this.segments : 0;
    }

    private void apply(int parity) {
        if (parity != this.applied) {
            this.session.setAutoParity(parity);
            this.applied = parity;
        }
    }
}

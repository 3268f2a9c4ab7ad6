package kr.c4i.gateway.norm.link;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
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
 * cost every packet k. NORM's auto parity is the session's: NORM takes it for each block it starts and for each repair
 * it starts, and serves the repairs of earlier frames before a new one. A parity set for an urgent frame so went with
 * the repairs of ROUTINE frames NORM started meanwhile, and behind a ROUTINE load at 30% loss a FLASH frame waited
 * seconds behind them (docs/results.md, "norm-urgent-second-pass"). So the session sends no parity of its own: an
 * urgent frame goes bare first, as any other, and as NORM reports it sent it is requeued with its parity
 * ({@code NormRequeueObject} takes the auto parity as it is called: set just before, taken back just after, on the
 * link's event thread). That pass repeats the source with one parity segment fewer, so an urgent frame costs the
 * packets it did before; a peer that has the frame already drops the copies. Reports are sent on the link's event
 * thread only.
 */
final class SessionParity {

    private static final Logger log = LoggerFactory.getLogger(SessionParity.class);

    private final NormSession session;
    private final @Nullable ParityPolicy policy;
    private final double rateBitsPerSecond;
    private final String name;
    private final boolean everyFrame;
    // The urgent frames NORM has not sent once yet: each is requeued with its parity once it has.
    private final Set<Long> urgentUnsent = new HashSet<>();
    private final LongAdder secondPasses = new LongAdder();
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

    /** Urgent frames sent a second time, with their parity. */
    long secondPasses() {
        return this.secondPasses.sum();
    }

    /** Parity segments the session sends with each block it starts now. */
    int applied() {
        return this.applied;
    }

    /** Hands a frame to NORM through {@code enqueue}; an {@code urgent} one gets its parity once it has gone. */
    synchronized long enqueue(boolean urgent, LongSupplier enqueue) {
        long object = enqueue.getAsLong();
        if (urgent && !this.everyFrame) {
            this.urgentUnsent.add(object);
        }
        return object;
    }

    /**
     * NORM sent {@code object} once: an urgent frame goes again with its parity, the source and one segment fewer
     * (nothing when the parity is none), ahead of the frames handed over after it.
     */
    synchronized void sentOnce(long object) {
        if (!this.urgentUnsent.remove(object) || this.segments == 0) {
            return;
        }
        apply(this.segments - 1);
        try {
            if (this.session.requeue(object)) {
                this.secondPasses.increment();
            }
            else {
                log.debug("norm WAN link: NORM no longer holds urgent object {} of {}; not sent again", object,
                        this.name);
            }
        }
        finally {
            apply(base());
        }
    }

    /** {@code object} was cancelled: it gets no second pass. */
    synchronized void cancelled(long object) {
        this.urgentUnsent.remove(object);
    }

    /**
     * What of a peer's {@code tally} of this session's packets the parity follows: with parity on every frame the
     * loss or the recent loss ({@link LossReport.Tally#parityLoss}) once the tally has
     * {@value LossWindow#MIN_SAMPLES} samples (NaN before), on urgent frames only the most loss the samples allow,
     * from the first ({@link LossReport.Tally#urgentParityLoss}).
     */
    double follows(LossReport.Tally tally) {
        if (!this.everyFrame) {
            return tally.urgentParityLoss();
        }
        return tally.samples() < LossWindow.MIN_SAMPLES ? Double.NaN : tally.parityLoss();
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
            if (this.everyFrame) {
                apply(next);
            }
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

package kr.c4i.gateway.norm.link;

import java.util.ArrayDeque;
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
 * running sender: NORM suspends its thread for it) applies to each block NORM starts sending after it, repairs
 * included. So the parity is on only while the next frame NORM starts is urgent: set as an urgent frame is handed to
 * NORM with nothing ahead of it, or as NORM reports the frame ahead of it sent ({@code NORM_TX_OBJECT_SENT} comes as
 * the last packet of that frame's first pass goes, a packet's time before NORM starts the next at its rate), and back
 * to none once NORM has sent it. Before, it was set as the urgent frame was handed over: the frames queued ahead of it
 * and the repairs NORM sent meanwhile went with it too, and behind a burst of frames at 30% loss and 128 kbit/s a
 * FLASH frame waited 1-3 s in NORM's queue for them (docs/results.md). Reports are sent on the link's event thread
 * only.
 */
final class SessionParity {

    private static final Logger log = LoggerFactory.getLogger(SessionParity.class);

    private final NormSession session;
    private final @Nullable ParityPolicy policy;
    private final double rateBitsPerSecond;
    private final String name;
    private final boolean everyFrame;
    // The frames' objects NORM has not sent once yet, in the order handed over, and which of them are urgent: while
    // the first is urgent, the session sends parity. Not kept when every frame goes with parity.
    private final ArrayDeque<Long> unsent = new ArrayDeque<>();
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

    /**
     * Hands a frame to NORM through {@code enqueue}, with parity when it is {@code urgent}: at once when NORM holds no
     * frame ahead of it, else once it has sent the one just ahead ({@link #leftQueue}).
     */
    synchronized long enqueue(boolean urgent, LongSupplier enqueue) {
        if (this.everyFrame) {
            return enqueue.getAsLong();
        }
        boolean next = this.unsent.isEmpty();
        if (urgent && next) {
            apply(this.segments);
        }
        long object;
        try {
            object = enqueue.getAsLong();
        }
        catch (RuntimeException ex) {
            // NORM did not take it: the parity stays as the frames it holds call for.
            applyForNext();
            throw ex;
        }
        this.unsent.addLast(object);
        if (urgent) {
            this.urgentUnsent.add(object);
        }
        return object;
    }

    /**
     * NORM sent {@code object} once, or it was cancelled: the parity is now what the next frame NORM starts calls
     * for.
     */
    synchronized void leftQueue(long object) {
        if (this.unsent.remove(object)) {
            this.urgentUnsent.remove(object);
            applyForNext();
        }
    }

    private void applyForNext() {
        Long next = this.unsent.peekFirst();
        apply(next != null && this.urgentUnsent.contains(next) ? this.segments : base());
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
            else {
                applyForNext();
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

package kr.c4i.gateway.wan.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * The DATA frames sent to one peer that the peer has not receipted yet: their copies stay in this gateway's store
 * (custody has not passed) and count against the link's credit. A receipt frees them; a frame left unreceipted past
 * the timeout, or a link that goes down, hands its copies back to the backlog to be sent again (the peer absorbs a
 * duplicate by message id). Used by one peer's sender thread and the link's receive thread: synchronized.
 *
 * <p>A frame is late only if the peer stopped receipting, or receipted a later frame without it (the peer lost it;
 * the norm link, which completes frames out of order while it repairs, may still be repairing one that old). While
 * the peer keeps receipting earlier frames it is working through a queue of them: sending those again would only
 * lengthen the queue, and on a link faster than the peer's store it made every frame late in turn. Nor is a frame
 * late because the peer stopped receipting while the link has not delivered everything yet: the link is still
 * repairing, or has not yet declared a cut, and a frame sent again would only wait behind its first copy and lengthen
 * the link's own timeout. The link either delivers it, and the frame is late if no receipt follows, or gives the peer
 * up, and every frame goes again at once ({@link #drain}).
 */
final class InFlightFrames {

    /** One frame on its way: its copies, its size on the link and when it was sent. */
    record SentFrame(long seq, List<Waiting> copies, int frameBytes, long sentAtNanos) {

        SentFrame {
            copies = List.copyOf(copies);
        }
    }

    private final Map<Long, SentFrame> frames = new LinkedHashMap<>();
    private long bytes;
    private long highestReceipted = Long.MIN_VALUE;
    private long lastReceiptNanos;
    private boolean receiptSeen;

    synchronized void sent(SentFrame frame) {
        if (frames.putIfAbsent(frame.seq(), frame) != null) {
            throw new IllegalStateException("Frame " + frame.seq() + " is already in flight");
        }
        bytes += frame.frameBytes();
    }

    /**
     * The frames these sequence numbers name that were still in flight; unknown or repeated ones are ignored.
     *
     * @param nowNanos when the receipt came, on the clock of {@link SentFrame#sentAtNanos}
     */
    synchronized List<SentFrame> receipted(Collection<Long> seqs, long nowNanos) {
        List<SentFrame> done = new ArrayList<>(seqs.size());
        for (long seq : seqs) {
            SentFrame frame = frames.remove(seq);
            if (frame != null) {
                bytes -= frame.frameBytes();
                done.add(frame);
                highestReceipted = Math.max(highestReceipted, seq);
                lastReceiptNanos = nowNanos;
                receiptSeen = true;
            }
        }
        return done;
    }

    /**
     * Removes and returns, oldest first, the frames sent longer than {@code timeout} before {@code nowNanos} that the
     * peer has not receipted although it receipted a later frame, or although it receipted nothing within
     * {@code timeout} and the link holds nothing unacknowledged.
     *
     * @param linkDelivering whether the link still holds frames for the peer that it has not acknowledged
     *        ({@code WanLink.unacknowledgedBytes} above zero)
     */
    synchronized List<SentFrame> overdue(long nowNanos, Duration timeout, boolean linkDelivering) {
        List<SentFrame> late = new ArrayList<>();
        boolean progressing = receiptSeen && nowNanos - lastReceiptNanos < timeout.toNanos();
        Iterator<SentFrame> it = frames.values().iterator();
        while (it.hasNext()) {
            SentFrame frame = it.next();
            if (nowNanos - frame.sentAtNanos() < timeout.toNanos()
                    || ((progressing || linkDelivering) && frame.seq() > highestReceipted)) {
                break;
            }
            it.remove();
            bytes -= frame.frameBytes();
            late.add(frame);
        }
        return late;
    }

    /** Removes and returns every frame in flight, oldest first (the link to the peer went down). */
    synchronized List<SentFrame> drain() {
        List<SentFrame> all = new ArrayList<>(frames.values());
        frames.clear();
        bytes = 0;
        return all;
    }

    /** Bytes of frames in flight. */
    synchronized long bytes() {
        return bytes;
    }

    synchronized int size() {
        return frames.size();
    }
}

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

    synchronized void sent(SentFrame frame) {
        if (frames.putIfAbsent(frame.seq(), frame) != null) {
            throw new IllegalStateException("Frame " + frame.seq() + " is already in flight");
        }
        bytes += frame.frameBytes();
    }

    /** The frames these sequence numbers name that were still in flight; unknown or repeated ones are ignored. */
    synchronized List<SentFrame> receipted(Collection<Long> seqs) {
        List<SentFrame> done = new ArrayList<>(seqs.size());
        for (long seq : seqs) {
            SentFrame frame = frames.remove(seq);
            if (frame != null) {
                bytes -= frame.frameBytes();
                done.add(frame);
            }
        }
        return done;
    }

    /** Removes and returns the frames sent longer than {@code timeout} before {@code nowNanos}, oldest first. */
    synchronized List<SentFrame> overdue(long nowNanos, Duration timeout) {
        List<SentFrame> late = new ArrayList<>();
        Iterator<SentFrame> it = frames.values().iterator();
        while (it.hasNext()) {
            SentFrame frame = it.next();
            if (nowNanos - frame.sentAtNanos() < timeout.toNanos()) {
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

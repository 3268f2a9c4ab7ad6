package kr.c4i.gateway.wan.relay;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FramePacker;
import kr.c4i.gateway.wan.frame.OversizeEnvelopeException;
import kr.c4i.gateway.wan.frame.PackedFrame;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.relay.InFlightFrames.SentFrame;
import kr.c4i.gateway.wan.schedule.Backlog;
import kr.c4i.gateway.wan.schedule.Batch;
import kr.c4i.gateway.wan.schedule.LinkPacer;
import kr.c4i.gateway.wan.schedule.PrecedenceScheduler;
import kr.c4i.gateway.wan.schedule.Waiting;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Removal;

/**
 * The one thread that sends to one peer site: receipts for what the peer sent first (they are small and free the
 * peer's store; on a long round trip those owed within a tenth of it go as one frame), then DATA frames in the
 * scheduler's order, as fast as the pacer allows, never more than its credit ahead of the peer's receipts and never
 * more than a short queue ahead of what the link has put on the wire. On a link that spends more on urgent frames,
 * urgent messages go in frames of their own. A frame's copies leave the store only when the peer receipts it; a frame
 * not receipted within the receipt timeout, or in flight when the link goes down, goes back to the backlog.
 */
final class PeerSender implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(PeerSender.class);

    /** How long the thread sleeps at most when nothing wakes it: it then looks for overdue frames. */
    private static final Duration IDLE = Duration.ofMillis(200);

    /**
     * The longest a receipt waits for others to go in its frame. Each frame is an object the link repairs and
     * acknowledges on its own: across a satellite hop with 30% loss, one receipt frame per DATA frame put thousands in
     * flight; together they are a quarter as many (docs/results.md, receipts sent together).
     */
    static final Duration RECEIPT_DELAY_MAX = Duration.ofMillis(100);

    /** The share of the round trip a receipt waits for others: the peer's credit holds a round trip and more. */
    static final int RECEIPT_DELAY_ROUND_TRIP_DIVISOR = 10;

    private final SiteId peer;
    private final WanLink link;
    private final RelayStore store;
    private final Backlog backlog;
    private final PrecedenceScheduler scheduler;
    private final LinkPacer pacer;
    private final FrameCodec codec;
    private final FramePacker packer;
    private final RelayMetrics metrics;
    private final long epoch;
    private final Duration receiptTimeout;
    private final int frameTargetBytes;
    private final long linkQueueBytes;
    private final InFlightFrames inFlight = new InFlightFrames();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    // Receipts owed to the peer, by the peer's epoch; guarded by lock.
    private final Map<Long, SortedSet<Long>> receiptsOwed = new java.util.LinkedHashMap<>();
    // When the receipts owed go, by System.nanoTime(); guarded by lock, meaningful while some are owed.
    private long receiptsDueAt;
    private boolean signalled;
    /** The link said the peer went DOWN since the last step: it may be UP again already (a restarted peer). */
    private final AtomicBoolean wentDown = new AtomicBoolean();
    private volatile boolean running = true;
    private long nextSeq = 1;
    // Bytes of messages per byte of frame, as the last frames came out: how much to ask the scheduler for.
    private double expansion = 2.0;

    PeerSender(SiteId peer, WanLink link, RelayStore store, Backlog backlog, PrecedenceScheduler scheduler,
            LinkPacer pacer, FrameCodec codec, RelayMetrics metrics, long epoch, Duration receiptTimeout,
            int frameTargetBytes, long linkQueueBytes) {
        this.peer = peer;
        this.link = link;
        this.store = store;
        this.backlog = backlog;
        this.scheduler = scheduler;
        this.pacer = pacer;
        this.codec = codec;
        this.packer = new FramePacker(codec, frameTargetBytes, link.maxFrameBytes());
        this.metrics = metrics;
        this.epoch = epoch;
        this.receiptTimeout = receiptTimeout;
        this.frameTargetBytes = frameTargetBytes;
        this.linkQueueBytes = linkQueueBytes;
    }

    SiteId peer() {
        return peer;
    }

    LinkPacer pacer() {
        return pacer;
    }

    long inFlightBytes() {
        return inFlight.bytes();
    }

    /** The most that may be in flight now: the credit, its share for the round trip included. */
    long creditBytes() {
        return pacer.windowBytes();
    }

    /** Something changed (copies stored for this peer, the link's state): look again. */
    void wake() {
        lock.lock();
        try {
            signalled = true;
            work.signalAll();
        }
        finally {
            lock.unlock();
        }
        pacer.wakeUp();
    }

    /**
     * The link gave the peer up: what it had in flight counts as lost, even if the peer is UP again by the time this
     * sender looks (a restarted peer is DOWN and UP at once), so its messages go again now rather than after the
     * receipt timeout.
     */
    void linkDown() {
        wentDown.set(true);
        wake();
    }

    /**
     * The peer sent a DATA frame that is now stored here: it is owed a receipt, which goes with those owed after it
     * within {@link #receiptDelay} of the link's round trip.
     */
    void owe(long peerEpoch, long seq) {
        boolean first;
        lock.lock();
        try {
            first = receiptsOwed.isEmpty();
            if (first) {
                receiptsDueAt = System.nanoTime() + receiptDelay(link.roundTrip(peer)).toNanos();
            }
            receiptsOwed.computeIfAbsent(peerEpoch, e -> new TreeSet<>()).add(seq);
        }
        finally {
            lock.unlock();
        }
        if (first) { // the thread then waits no longer than the receipts' due time
            wake();
        }
    }

    /** How long a receipt owed waits for others: a tenth of the round trip, at most {@link #RECEIPT_DELAY_MAX}. */
    static Duration receiptDelay(Duration roundTrip) {
        Duration share = roundTrip.isNegative() ? Duration.ZERO : roundTrip.dividedBy(RECEIPT_DELAY_ROUND_TRIP_DIVISOR);
        return share.compareTo(RECEIPT_DELAY_MAX) > 0 ? RECEIPT_DELAY_MAX : share;
    }

    /** The peer stored these frames: their copies leave the store, their bytes free the credit. */
    void receipted(long receiptEpoch, SortedSet<Long> seqs) {
        if (receiptEpoch != epoch) {
            return; // for an earlier run of this gateway: those copies were all offered again since
        }
        List<SentFrame> frames = inFlight.receipted(seqs, System.nanoTime());
        if (frames.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>();
        long bytes = 0;
        for (SentFrame frame : frames) {
            frame.copies().forEach(c -> ids.add(c.id()));
            bytes += frame.frameBytes();
        }
        store.remove(ids, Removal.ACKNOWLEDGED);
        pacer.receipted(bytes);
        frames.forEach(f -> f.copies().forEach(
                c -> metrics.relayed(peer, RelayMetrics.Direction.WAN_OUT, c.precedence(), c.kmtfType())));
        wake();
    }

    void stop() {
        running = false;
        wake();
    }

    @Override
    public void run() {
        while (running) {
            try {
                step();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (RuntimeException | SQLException ex) {
                log.warn("Sender to site {} failed, trying again: {}", peer, ex.toString(), ex);
                giveBack(inFlight.drain());
                await(Duration.ofSeconds(1).toNanos());
            }
        }
    }

    private void step() throws InterruptedException, SQLException {
        LinkState state = link.state(peer);
        if (wentDown.getAndSet(false) || state != LinkState.UP) {
            List<SentFrame> stranded = inFlight.drain();
            if (!stranded.isEmpty()) {
                log.info("Link to site {} went down (now {}): {} frames in flight go back to the store's backlog",
                        peer, state.label(), stranded.size());
                giveBack(stranded);
            }
            if (state != LinkState.UP) {
                await(IDLE.toNanos());
                return;
            }
        }
        sendReceipts();
        List<SentFrame> overdue = inFlight.overdue(System.nanoTime(), receiptTimeout,
                link.unacknowledgedBytes(peer) > 0);
        if (!overdue.isEmpty()) {
            log.info("{} frames to site {} were not receipted within {}: their messages go again", overdue.size(),
                    peer, receiptTimeout);
            giveBack(overdue);
        }
        if (link.queuedBytes(peer) >= linkQueueBytes) {
            // What the link has not yet sent would stand ahead of anything handed over now; the link says when it
            // went down (queueDrained), and meanwhile FLASH may still overtake the backlog in the store.
            await(IDLE.toNanos());
            return;
        }
        pacer.roundTrip(link.roundTrip(peer));
        long available = pacer.available();
        if (available <= 0) {
            long wait = pacer.nanosUntilAvailable();
            await(Math.min(wait, IDLE.toNanos()));
            return;
        }
        // On a busy link the bucket refills a few bytes at a time: sending then would make frames of a message or
        // two, each with its own overhead and a worse compression. While more waits than may go now, wait for a
        // whole frame's worth; a FLASH message waits at most one frame's link time for it.
        if (available < frameTargetBytes && waitingBytes() > scaled(available)) {
            long fill = pacer.nanosUntilRate(frameTargetBytes);
            if (fill > 0) {
                await(Math.min(fill, IDLE.toNanos()));
                return;
            }
        }
        Batch batch = scheduler.next(scaled(available), scaled(frameTargetBytes));
        if (!batch.expired().isEmpty()) {
            store.remove(batch.expired().stream().map(Waiting::id).toList(), Removal.EXPIRED)
                    .forEach(w -> metrics.dropped("expired", w.precedence(), w.kmtfType()));
        }
        if (batch.copies().isEmpty()) {
            if (batch.expired().isEmpty()) {
                await(IDLE.toNanos());
            }
            return;
        }
        sendData(batch.copies());
    }

    private long waitingBytes() {
        long bytes = 0;
        for (Precedence precedence : Precedence.values()) {
            bytes += backlog.waitingBytes(precedence);
        }
        return bytes;
    }

    private int scaled(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (long) (bytes * expansion)));
    }

    private void sendData(List<Waiting> copies) throws SQLException {
        Map<Long, RelayedEnvelope> loaded = store.load(copies.stream().map(Waiting::id).toList());
        List<Waiting> present = new ArrayList<>(copies.size());
        List<RelayedEnvelope> envelopes = new ArrayList<>(copies.size());
        for (Waiting copy : copies) {
            RelayedEnvelope relayed = loaded.get(copy.id());
            if (relayed != null) { // gone meanwhile (receipted by an earlier frame sent again)
                present.add(copy);
                envelopes.add(relayed);
            }
        }
        @Nullable Precedence urgentFrom = link.urgentFrom();
        int from = 0;
        while (from < envelopes.size()) {
            long seq = nextSeq;
            int end = frameEnd(present, from, urgentFrom);
            PackedFrame packed;
            try {
                packed = packer.pack(epoch, seq, envelopes.subList(from, end));
            }
            catch (OversizeEnvelopeException ex) {
                Waiting copy = present.get(from);
                log.error("Message {} cannot cross the WAN to site {}: {}; dropped", envelopes.get(from).messageId(),
                        peer, ex.getMessage());
                store.remove(List.of(copy.id()), Removal.dropped("oversize: " + ex.getMessage()));
                metrics.dropped("oversize", copy.precedence(), copy.kmtfType());
                from++;
                continue;
            }
            List<Waiting> framed = present.subList(from, from + packed.envelopes());
            if ((pacer.available() <= 0 || link.queuedBytes(peer) >= linkQueueBytes) && from > 0) {
                break; // the rest waits for the pacer with the backlog, where FLASH can still overtake it
            }
            Precedence urgency = urgency(framed);
            try {
                link.send(peer, packed.frame(), urgency);
            }
            catch (TransportException | IllegalArgumentException ex) {
                log.info("Link to site {} did not take a frame ({}); its messages wait in the store", peer,
                        ex.getMessage());
                break;
            }
            nextSeq++;
            if (urgency == Precedence.FLASH && log.isDebugEnabled()) {
                // With the peer's line for the same frame: how long it waited here and how long it took the link.
                log.debug("Frame {} to site {} carries FLASH: handed to the link, {} bytes queued there, {} of {} "
                        + "credit in flight", seq, peer, link.queuedBytes(peer), inFlight.bytes(), pacer.windowBytes());
            }
            inFlight.sent(new SentFrame(seq, framed, packed.frame().length, System.nanoTime()));
            pacer.sent(packed.frame().length);
            metrics.frame(peer, true, true, packed.frame().length);
            metrics.payloadSent(peer, packed.blockBytes());
            expansion = Math.max(1.0, 0.8 * expansion + 0.2 * ((double) packed.blockBytes() / packed.frame().length));
            from += packed.envelopes();
        }
        if (from < present.size()) {
            backlog.putBack(present.subList(from, present.size()));
        }
    }

    /**
     * Where the candidates of the frame starting at {@code from} end: all of them, unless the link spends more on
     * urgent frames ({@link WanLink#urgentFrom}); then at the first copy on the other side of that precedence than the
     * first, so that the extra carries urgent messages only and a less urgent frame never takes one along.
     */
    private static int frameEnd(List<Waiting> copies, int from, @Nullable Precedence urgentFrom) {
        if (urgentFrom == null) {
            return copies.size();
        }
        boolean urgent = copies.get(from).precedence().compareTo(urgentFrom) <= 0;
        int end = from + 1;
        while (end < copies.size() && (copies.get(end).precedence().compareTo(urgentFrom) <= 0) == urgent) {
            end++;
        }
        return end;
    }

    /** The precedence of a frame's most urgent message. */
    private static Precedence urgency(List<Waiting> framed) {
        Precedence most = Precedence.ROUTINE;
        for (Waiting copy : framed) {
            if (copy.precedence().compareTo(most) < 0) {
                most = copy.precedence();
            }
        }
        return most;
    }

    private void sendReceipts() {
        Map<Long, SortedSet<Long>> owed;
        lock.lock();
        try {
            if (receiptsOwed.isEmpty() || receiptsDueAt - System.nanoTime() > 0) {
                return;
            }
            owed = new java.util.LinkedHashMap<>(receiptsOwed);
            receiptsOwed.clear();
        }
        finally {
            lock.unlock();
        }
        owed.forEach((peerEpoch, seqs) -> {
            List<Long> all = new ArrayList<>(seqs);
            for (int i = 0; i < all.size(); i += FrameCodec.MAX_RECEIPT_SEQS) {
                byte[] frame = codec.receipt(peerEpoch, all.subList(i, Math.min(all.size(), i + FrameCodec.MAX_RECEIPT_SEQS)));
                try {
                    link.send(peer, frame);
                    metrics.frame(peer, true, false, frame.length);
                }
                catch (TransportException | IllegalArgumentException ex) {
                    // Unreceipted, the peer sends those frames again and is receipted then.
                    log.info("Link to site {} did not take a receipt for {} frames: {}", peer, all.size(),
                            ex.getMessage());
                    return;
                }
            }
        });
    }

    private void giveBack(List<SentFrame> frames) {
        if (frames.isEmpty()) {
            return;
        }
        long bytes = 0;
        List<Waiting> copies = new ArrayList<>();
        for (SentFrame frame : frames) {
            copies.addAll(frame.copies());
            bytes += frame.frameBytes();
        }
        pacer.lost(bytes);
        backlog.putBack(copies);
        metrics.framesResent(peer, frames.size());
    }

    /**
     * Waits until woken, for at most {@code nanos}, and no longer than until receipts owed are due (those already due
     * wait for the link to come up).
     */
    private void await(long nanos) {
        lock.lock();
        try {
            long untilDue = receiptsDueAt - System.nanoTime();
            long left = !receiptsOwed.isEmpty() && untilDue > 0 ? Math.min(nanos, untilDue) : nanos;
            while (!signalled && running && left > 0) {
                left = work.awaitNanos(left);
            }
            signalled = false;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running = false;
        }
        finally {
            lock.unlock();
        }
    }
}

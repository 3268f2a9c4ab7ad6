package kr.c4i.gateway.jms.link;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;

/** Records frames and state changes in the order the link reports them; can be told to fail on every frame. */
class RecordingFrameHandler implements FrameHandler {

    record Frame(SiteId from, byte[] bytes) {
    }

    record Change(SiteId peer, LinkState state) {
    }

    private final List<Frame> frames = new CopyOnWriteArrayList<>();
    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private final List<Integer> batches = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch held = new CountDownLatch(0);
    private final AtomicInteger attempts = new AtomicInteger();
    private final int failures;

    RecordingFrameHandler() {
        this(0);
    }

    private RecordingFrameHandler(int failures) {
        this.failures = failures;
    }

    /** A handler that throws on every frame, as one whose store is down. */
    static RecordingFrameHandler failing() {
        return new RecordingFrameHandler(Integer.MAX_VALUE);
    }

    /** A handler that throws on its first {@code failures} calls, then records. */
    static RecordingFrameHandler failingFirst(int failures) {
        return new RecordingFrameHandler(failures);
    }

    @Override
    public void received(List<ReceivedFrame> frames) {
        this.batches.add(frames.size());
        try {
            this.held.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        FrameHandler.super.received(frames);
    }

    @Override
    public void received(SiteId from, byte[] frame) {
        if (this.attempts.incrementAndGet() <= this.failures) {
            throw new IllegalStateException("store unavailable (test)");
        }
        this.frames.add(new Frame(from, frame.clone()));
    }

    @Override
    public void stateChanged(SiteId peer, LinkState state) {
        this.changes.add(new Change(peer, state));
    }

    List<Frame> frames() {
        return List.copyOf(this.frames);
    }

    List<byte[]> bytesFrom(String site) {
        return this.frames.stream().filter((frame) -> frame.from().value().equals(site)).map(Frame::bytes).toList();
    }

    List<LinkState> statesOf(String peer) {
        return this.changes.stream().filter((change) -> change.peer().value().equals(peer)).map(Change::state)
                .toList();
    }

    int attempts() {
        return this.attempts.get();
    }

    /** How many frames the link handed over in each call, in order. */
    List<Integer> batches() {
        return List.copyOf(this.batches);
    }

    /** From now on each call waits until {@link #release} (the link's receive thread is held). */
    void hold() {
        this.held = new CountDownLatch(1);
    }

    void release() {
        this.held.countDown();
    }
}

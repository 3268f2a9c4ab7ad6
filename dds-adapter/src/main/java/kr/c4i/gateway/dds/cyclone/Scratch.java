package kr.c4i.gateway.dds.cyclone;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * Reusable native memory of one participant for one kind of call (writes, or takes), so that the common case
 * allocates nothing: one caller at a time holds it, from {@link #acquire} to {@link #release}; a caller that finds
 * it held (another thread, or a nested call on the same thread), or needs more than {@code maxBytes}, gets
 * {@code null} and uses a per-call arena instead. It grows by doubling, in a fresh shared arena (the old one is
 * closed, nobody holding it), and is freed by {@link #close}, which the participant calls after {@code dds_delete},
 * when no call of its entities is in flight. The memory is not zeroed between uses.
 */
final class Scratch implements AutoCloseable {

    /** Thrown by {@link Allocator} when the scratch is too small; no stack trace, it is part of normal flow. */
    static final class Full extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private Full() {
            super("scratch memory full", null, false, false);
        }
    }

    private static final Full FULL = new Full();

    private final long maxBytes;
    private final AtomicBoolean held = new AtomicBoolean();
    // Written only by the holder; the CAS on held orders the accesses of successive holders.
    private @Nullable Arena arena;
    private MemorySegment segment = MemorySegment.NULL;
    private boolean closed;

    Scratch(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * The scratch memory, at least {@code bytes} long, for the caller alone until {@link #release}; {@code null}
     * if another call holds it, it would exceed {@code maxBytes}, or it is closed.
     */
    @Nullable MemorySegment acquire(long bytes) {
        if (bytes > this.maxBytes || !this.held.compareAndSet(false, true)) {
            return null;
        }
        if (this.closed) {
            this.held.set(false);
            return null;
        }
        if (this.segment.byteSize() < bytes) {
            long size = Math.max(bytes, Math.min(this.maxBytes, Math.max(1024, this.segment.byteSize() * 2)));
            if (this.arena != null) {
                this.arena.close();
            }
            this.arena = Arena.ofShared();
            this.segment = this.arena.allocate(size, 16);
        }
        return this.segment;
    }

    void release() {
        this.held.set(false);
    }

    /** Frees the memory; waits for a holder to release it (there is none once the participant is deleted). */
    @Override
    public void close() {
        while (!this.held.compareAndSet(false, true)) {
            Thread.onSpinWait();
        }
        try {
            this.closed = true;
            if (this.arena != null) {
                this.arena.close();
                this.arena = null;
                this.segment = MemorySegment.NULL;
            }
        }
        finally {
            this.held.set(false);
        }
    }

    /**
     * Bump allocation from the start of a held scratch segment, without zeroing; throws {@link Full} when the
     * segment is too small, so the caller can ask for a larger one and start over.
     */
    static final class Allocator implements SegmentAllocator {

        private final MemorySegment segment;
        private long offset;

        Allocator(MemorySegment segment) {
            this.segment = segment;
        }

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            long start = (this.segment.address() + this.offset + byteAlignment - 1) & -byteAlignment;
            long relative = start - this.segment.address();
            if (relative + byteSize > this.segment.byteSize()) {
                throw FULL;
            }
            this.offset = relative + byteSize;
            return this.segment.asSlice(relative, byteSize);
        }
    }
}

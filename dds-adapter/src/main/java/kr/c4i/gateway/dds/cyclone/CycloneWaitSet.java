package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.ReaderDriver;
import kr.c4i.gateway.dds.spi.WaitSetDriver;

/**
 * A Cyclone wait set with one read condition per reader. It is attached to itself, so
 * {@code dds_waitset_set_trigger} can wake a waiting thread; that also keeps Cyclone from returning at once
 * while no reader is attached yet.
 */
final class CycloneWaitSet implements WaitSetDriver {

    private static final long SELF = -1L;

    private final CycloneParticipant participant;
    private final Ddsc ddsc;
    private final int handle;
    private final AtomicInteger attached = new AtomicInteger(1);

    CycloneWaitSet(CycloneParticipant participant, int handle) {
        this.participant = participant;
        this.ddsc = participant.ddsc;
        this.handle = handle;
        this.ddsc.check(this.ddsc.waitsetAttach(handle, handle, SELF), "dds_waitset_attach");
    }

    @Override
    public void attach(ReaderDriver<?> reader, int token) {
        int readerHandle = ((CycloneReader<?>) reader).handle;
        // The condition is the reader's child: deleting the reader deletes it and detaches it.
        int condition = this.ddsc.check(
                this.ddsc.createReadcondition(readerHandle, DdscLayouts.READ_CONDITION_NOT_READ),
                "dds_create_readcondition");
        this.ddsc.check(this.ddsc.waitsetAttach(this.handle, condition, token), "dds_waitset_attach");
        this.attached.incrementAndGet();
    }

    @Override
    public int[] await(Duration timeout) {
        int capacity = this.attached.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tokens = arena.allocate(JAVA_LONG, capacity);
            int triggered = this.ddsc.check(
                    this.ddsc.waitsetWait(this.handle, tokens, capacity, NativeQos.nanos(timeout)),
                    "dds_waitset_wait");
            int[] ready = new int[Math.min(triggered, capacity)];
            int count = 0;
            for (int i = 0; i < ready.length; i++) {
                long token = tokens.getAtIndex(JAVA_LONG, i);
                if (token == SELF) {
                    this.ddsc.waitsetSetTrigger(this.handle, false);
                }
                else {
                    ready[count++] = (int) token;
                }
            }
            return Arrays.copyOf(ready, count);
        }
    }

    @Override
    public void wakeup() {
        // Ignores the result: after close the handle is gone and there is nobody to wake.
        this.ddsc.waitsetSetTrigger(this.handle, true);
    }

    @Override
    public void close() {
        this.participant.deleteQuietly(this.handle, "wait set");
    }
}

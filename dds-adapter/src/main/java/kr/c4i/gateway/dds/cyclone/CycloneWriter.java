package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

import kr.c4i.gateway.dds.WriterStatus;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.WriterDriver;

/**
 * A Cyclone data writer. A write marshals the sample into the participant's write scratch (no allocation), or,
 * when another write holds it or the sample outgrows it, into a per-call confined arena.
 */
final class CycloneWriter<T> implements WriterDriver<T> {

    private final CycloneTopic<T> topic;
    private final Ddsc ddsc;
    private final int handle;
    // The scratch size this writer's samples needed so far; a benign race between writing threads.
    private int scratchHint = 1024;

    CycloneWriter(CycloneTopic<T> topic, int handle) {
        this.topic = topic;
        this.ddsc = topic.participant.ddsc;
        this.handle = handle;
    }

    @Override
    public void write(T sample) {
        Scratch scratch = this.topic.participant.writeScratch;
        long size = this.scratchHint;
        MemorySegment memory;
        while ((memory = scratch.acquire(size)) != null) {
            try {
                MemorySegment data = encode(sample, new Scratch.Allocator(memory));
                this.ddsc.check(this.ddsc.write(this.handle, data), "dds_write");
                return;
            }
            catch (Scratch.Full full) {
                // Encoded again in twice the memory; past the scratch's limit in a per-call arena.
                size = memory.byteSize() * 2;
                this.scratchHint = (int) Math.min(Integer.MAX_VALUE, size);
            }
            finally {
                scratch.release();
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            this.ddsc.check(this.ddsc.write(this.handle, encode(sample, arena)), "dds_write");
        }
    }

    private MemorySegment encode(T sample, SegmentAllocator allocator) {
        NativeSampleEncoder encoder = new NativeSampleEncoder(allocator, this.topic.layout, this.topic.type.name());
        this.topic.type.codec().encode(sample, encoder);
        return encoder.finish();
    }

    @Override
    public void flush() {
        this.ddsc.writeFlush(this.handle);
    }

    @Override
    public WriterStatus status() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(DdscLayouts.MATCHED_STATUS);
            this.ddsc.check(this.ddsc.getPublicationMatchedStatus(this.handle, status),
                    "dds_get_publication_matched_status");
            return new WriterStatus(status.get(JAVA_INT, DdscLayouts.MATCHED_CURRENT_COUNT),
                    status.get(JAVA_INT, DdscLayouts.MATCHED_TOTAL_COUNT));
        }
    }

    @Override
    public void close() {
        this.topic.participant.deleteQuietly(this.handle, "writer on " + this.topic.name());
    }
}

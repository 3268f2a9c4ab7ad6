package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import kr.c4i.gateway.dds.WriterStatus;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.WriterDriver;

/** A Cyclone data writer; each write marshals into its own confined arena. */
final class CycloneWriter<T> implements WriterDriver<T> {

    private final CycloneTopic<T> topic;
    private final Ddsc ddsc;
    private final int handle;

    CycloneWriter(CycloneTopic<T> topic, int handle) {
        this.topic = topic;
        this.ddsc = topic.participant.ddsc;
        this.handle = handle;
    }

    @Override
    public void write(T sample) {
        try (Arena arena = Arena.ofConfined()) {
            NativeSampleEncoder encoder = new NativeSampleEncoder(arena, this.topic.layout, this.topic.type.name());
            this.topic.type.codec().encode(sample, encoder);
            MemorySegment data = encoder.finish();
            this.ddsc.check(this.ddsc.write(this.handle, data), "dds_write");
        }
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

package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.dds.ReaderStatus;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.ReaderDriver;

/**
 * A Cyclone data reader. {@code take} borrows Cyclone's sample memory ({@code buf[0] = NULL} asks for a loan),
 * copies each sample onto the Java heap while decoding, and returns the loan in a {@code finally}. The pointer
 * array handed to Cyclone is always as large as the largest {@code max} asked for on this reader, because
 * Cyclone 0.10 initialises its cached loan's full size into it.
 */
final class CycloneReader<T> implements ReaderDriver<T> {

    private static final Logger log = LoggerFactory.getLogger(CycloneReader.class);

    final int handle;
    private final CycloneTopic<T> topic;
    private final Ddsc ddsc;
    private final AtomicLong undecodable = new AtomicLong();
    // Cyclone keeps the reader's loan at the largest size ever asked for and, on every loaned take,
    // fills that many pointers into buf: a smaller buf than an earlier call's would be overrun.
    private int loanCapacity;

    CycloneReader(CycloneTopic<T> topic, int handle) {
        this.topic = topic;
        this.ddsc = topic.participant.ddsc;
        this.handle = handle;
    }

    @Override
    public synchronized int take(int max, Consumer<? super T> sink) {
        this.loanCapacity = Math.max(this.loanCapacity, max);
        try (Arena arena = Arena.ofConfined()) {
            // Zeroed, so buf[0] == NULL: Cyclone lends its own buffers.
            MemorySegment buffers = arena.allocate(ADDRESS, this.loanCapacity);
            MemorySegment infos = arena.allocate(DdscLayouts.SAMPLE_INFO, max);
            int taken = this.ddsc.check(this.ddsc.take(this.handle, buffers, infos, max, max), "dds_take");
            if (taken == 0) {
                return 0;
            }
            try {
                for (int i = 0; i < taken; i++) {
                    boolean valid = infos.get(JAVA_BOOLEAN,
                            i * DdscLayouts.SAMPLE_INFO.byteSize() + DdscLayouts.SAMPLE_INFO_VALID_DATA);
                    if (valid) {
                        decode(buffers.getAtIndex(ADDRESS, i), sink);
                    }
                }
            }
            finally {
                this.ddsc.check(this.ddsc.returnLoan(this.handle, buffers, taken), "dds_return_loan");
            }
            return taken;
        }
    }

    private void decode(MemorySegment sample, Consumer<? super T> sink) {
        T value;
        try {
            NativeSampleDecoder decoder = new NativeSampleDecoder(sample, this.topic.layout, this.topic.type.name());
            value = this.topic.type.codec().decode(decoder);
            decoder.finish();
        }
        catch (IllegalArgumentException ex) {
            long count = this.undecodable.incrementAndGet();
            // Logged sparsely: a misbehaving remote writer could otherwise flood the log.
            if (Long.bitCount(count) == 1) {
                log.warn("Dropped undecodable sample #{} on topic {}: {}", count, this.topic.name(), ex.getMessage());
            }
            return;
        }
        sink.accept(value);
    }

    @Override
    public ReaderStatus status() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment matched = arena.allocate(DdscLayouts.MATCHED_STATUS);
            MemorySegment lost = arena.allocate(DdscLayouts.SAMPLE_LOST_STATUS);
            MemorySegment rejected = arena.allocate(DdscLayouts.SAMPLE_REJECTED_STATUS);
            this.ddsc.check(this.ddsc.getSubscriptionMatchedStatus(this.handle, matched),
                    "dds_get_subscription_matched_status");
            this.ddsc.check(this.ddsc.getSampleLostStatus(this.handle, lost), "dds_get_sample_lost_status");
            this.ddsc.check(this.ddsc.getSampleRejectedStatus(this.handle, rejected),
                    "dds_get_sample_rejected_status");
            return new ReaderStatus(matched.get(JAVA_INT, DdscLayouts.MATCHED_CURRENT_COUNT),
                    Integer.toUnsignedLong(lost.get(JAVA_INT, DdscLayouts.SAMPLE_LOST_TOTAL_COUNT)),
                    Integer.toUnsignedLong(rejected.get(JAVA_INT, DdscLayouts.SAMPLE_REJECTED_TOTAL_COUNT)),
                    this.undecodable.get());
        }
    }

    @Override
    public void close() {
        this.topic.participant.deleteQuietly(this.handle, "reader on " + this.topic.name());
    }
}

package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.dds.DataReader.SampleSink;
import kr.c4i.gateway.dds.ReaderStatus;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.spi.ReaderDriver;

/**
 * A Cyclone data reader. {@code take} borrows Cyclone's sample memory ({@code buf[0] = NULL} asks for a loan),
 * copies each sample onto the Java heap while decoding, and returns the loan in a {@code finally}.
 *
 * <p>The pointer array handed to Cyclone is always as large as the largest {@code max} ever asked of this reader:
 * Cyclone 0.10.2 keeps the reader's loan at the largest size asked for and, on every loaned take (data or not),
 * stores that many pointers into {@code buf} ({@code dds_read_impl}: {@code ddsi_sertype_realloc_samples(buf, ...,
 * m_loan_size, m_loan_size)}), not {@code maxs}. A smaller array, as a take of 1 after a take of 256, would be
 * overrun into the C heap. {@value #GUARD_SLOTS} guard slots after the array hold a pattern that is checked after
 * every take: Cyclone writing into them means its loan is larger than this class believes. Within the guard it is
 * logged and the array grown for the next take; over the whole guard the native heap may be damaged, and the take
 * fails (after its samples were delivered and the loan returned).
 */
final class CycloneReader<T> implements ReaderDriver<T> {

    /** Pointer slots after the loan array, checked after every take. */
    static final int GUARD_SLOTS = 8;
    /** Not a pointer Cyclone can store: odd, and outside the canonical x86_64 user address range. */
    static final long GUARD_PATTERN = 0xA5A5_5A5A_DEAD_BEEFL;

    private static final Logger log = LoggerFactory.getLogger(CycloneReader.class);

    final int handle;
    private final CycloneTopic<T> topic;
    private final Ddsc ddsc;
    private final AtomicLong undecodable = new AtomicLong();
    // The most pointers Cyclone may store into buf: the largest max ever asked of this reader (guarded by this).
    private int loanCapacity;
    // Guard slots Cyclone wrote into, over the reader's life (guarded by this); 0 unless Cyclone changes.
    private long guardOverruns;

    CycloneReader(CycloneTopic<T> topic, int handle) {
        this.topic = topic;
        this.ddsc = topic.participant.ddsc;
        this.handle = handle;
    }

    @Override
    public synchronized int take(int max, Consumer<? super T> sink) {
        this.loanCapacity = Math.max(this.loanCapacity, max);
        return take(max, this.loanCapacity, GUARD_SLOTS, sink);
    }

    @Override
    public synchronized int takeWithPublication(int max, SampleSink<T> sink) {
        this.loanCapacity = Math.max(this.loanCapacity, max);
        return takeWithInfo(max, this.loanCapacity, GUARD_SLOTS, sink);
    }

    @Override
    public @Nullable List<String> publicationPartitions(long publication) {
        MemorySegment endpoint = this.ddsc.getMatchedPublicationData(this.handle, publication);
        if (endpoint.equals(MemorySegment.NULL)) {
            return null;
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment qos = endpoint.reinterpret(DdscLayouts.BUILTINTOPIC_ENDPOINT.byteSize())
                    .get(ADDRESS, DdscLayouts.BUILTINTOPIC_ENDPOINT_QOS);
            MemorySegment count = call.allocate(JAVA_INT);
            MemorySegment names = call.allocate(ADDRESS);
            if (qos.equals(MemorySegment.NULL) || !this.ddsc.qgetPartition(qos, count, names)) {
                return List.of();
            }
            int n = count.get(JAVA_INT, 0);
            MemorySegment array = names.get(ADDRESS, 0);
            if (array.equals(MemorySegment.NULL)) {
                return List.of();
            }
            array = array.reinterpret(ADDRESS.byteSize() * n);
            List<String> partitions = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                MemorySegment name = array.getAtIndex(ADDRESS, i);
                partitions.add(name.reinterpret(Integer.MAX_VALUE).getString(0));
                this.ddsc.free(name);
            }
            this.ddsc.free(array);
            return partitions;
        }
        finally {
            this.ddsc.builtintopicFreeEndpoint(endpoint);
        }
    }

    /**
     * Takes up to {@code max} samples through a pointer array of {@code slots} slots followed by {@code guardSlots}
     * guard slots. {@link #take(int, Consumer)} passes the loan capacity; tests pass fewer slots and a guard long
     * enough to catch what Cyclone writes past them.
     */
    synchronized int take(int max, int slots, int guardSlots, Consumer<? super T> sink) {
        return takeWithInfo(max, slots, guardSlots, (sample, publication) -> sink.accept(sample));
    }

    private int takeWithInfo(int max, int slots, int guardSlots, SampleSink<T> sink) {
        if (slots < max) {
            throw new IllegalArgumentException("slots " + slots + " < max " + max);
        }
        long pointerBytes = ADDRESS.byteSize() * (slots + (long) guardSlots);
        long infoOffset = (pointerBytes + 15) & -16L;
        long bytes = infoOffset + DdscLayouts.SAMPLE_INFO.byteSize() * max;
        Scratch scratch = this.topic.participant.takeScratch;
        MemorySegment memory = scratch.acquire(bytes);
        if (memory != null) {
            try {
                return take(max, slots, guardSlots, memory.asSlice(0, pointerBytes),
                        memory.asSlice(infoOffset, bytes - infoOffset), sink);
            }
            finally {
                scratch.release();
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            return take(max, slots, guardSlots, arena.allocate(ADDRESS, slots + (long) guardSlots),
                    arena.allocate(DdscLayouts.SAMPLE_INFO, max), sink);
        }
    }

    private int take(int max, int slots, int guardSlots, MemorySegment buffers, MemorySegment infos,
            SampleSink<T> sink) {
        // buf[0] == NULL: Cyclone lends its own buffers and stores the pointers to them into buf. The other slots
        // and the infos are only written by Cyclone, so reused memory needs no clearing.
        buffers.setAtIndex(ADDRESS, 0, MemorySegment.NULL);
        for (int i = 0; i < guardSlots; i++) {
            buffers.setAtIndex(JAVA_LONG, slots + i, GUARD_PATTERN);
        }
        int taken = this.ddsc.check(this.ddsc.take(this.handle, buffers, infos, max, max), "dds_take");
        // Cyclone fills the pointers before it looks for data, so the guard is checked on empty takes too.
        int overrun = overrun(buffers, slots, guardSlots);
        if (taken > 0) {
            try {
                for (int i = 0; i < taken; i++) {
                    boolean valid = infos.get(JAVA_BOOLEAN,
                            i * DdscLayouts.SAMPLE_INFO.byteSize() + DdscLayouts.SAMPLE_INFO_VALID_DATA);
                    if (valid) {
                        decode(buffers.getAtIndex(ADDRESS, i), infos.get(JAVA_LONG,
                                i * DdscLayouts.SAMPLE_INFO.byteSize() + DdscLayouts.SAMPLE_INFO_PUBLICATION_HANDLE),
                                sink);
                    }
                }
            }
            finally {
                this.ddsc.check(this.ddsc.returnLoan(this.handle, buffers, taken), "dds_return_loan");
            }
        }
        if (overrun > 0) {
            guardOverrun(overrun, slots, guardSlots);
        }
        return taken;
    }

    private static int overrun(MemorySegment buffers, int slots, int guardSlots) {
        int written = 0;
        for (int i = 0; i < guardSlots; i++) {
            if (buffers.getAtIndex(JAVA_LONG, slots + i) != GUARD_PATTERN) {
                written = i + 1;
            }
        }
        return written;
    }

    private void guardOverrun(int overrun, int slots, int guardSlots) {
        this.guardOverruns += overrun;
        this.loanCapacity = Math.max(this.loanCapacity, slots + overrun);
        if (overrun >= guardSlots) {
            throw new IllegalStateException("dds_take on " + this.topic.name() + " stored pointers past the " + slots
                    + " slots of the loan array and all " + guardSlots + " guard slots after it: the native heap may "
                    + "be corrupted. Cyclone's loan is larger than this binding tracks; is it Cyclone DDS 0.10?");
        }
        log.error("dds_take on {} stored {} pointers past the {} slots of the loan array (caught by the guard); "
                + "taking with {} slots from now on", this.topic.name(), overrun, slots, this.loanCapacity);
    }

    /** Guard slots Cyclone wrote into over this reader's life; 0 while the loan capacity is tracked right. */
    synchronized long guardOverruns() {
        return this.guardOverruns;
    }

    /** The pointer slots the next take hands to Cyclone (before its own {@code max}). */
    synchronized int loanCapacity() {
        return this.loanCapacity;
    }

    private void decode(MemorySegment sample, long publication, SampleSink<T> sink) {
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
        sink.accept(value, publication);
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

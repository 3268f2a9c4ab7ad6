package kr.c4i.gateway.wan.frame;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.CRC32C;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * Writes and reads WAN frames (format version {@value #VERSION}, described in docs/wan-gateway.md, "Frames"; it also
 * reads version {@value #OLDEST_READ}, whose records have no trace context, and writes receipts as that version):
 *
 * <pre>
 * DATA:    version kind=1 dictionary-id epoch(8) seq(varint) compressed-block crc32c(4)
 * RECEIPT: version kind=2 epoch(8) range-count(varint) ranges(varints)          crc32c(4)
 * </pre>
 *
 * The block of a DATA frame is its envelopes one after another (see {@link EnvelopeRecords}), compressed as one.
 * The CRC-32C covers every byte before it and, in a DATA frame, the block uncompressed too: so it also catches a
 * block restored with other dictionary bytes under the same id. Thread-safe.
 */
public final class FrameCodec {

    /** The format version of the DATA frames this codec writes. */
    public static final int VERSION = EnvelopeRecords.TRACE_PARENT_SINCE;

    /**
     * The oldest format version it reads: the one before, so that a peer not yet upgraded is still heard. Frames
     * differ between the two only in their records' last field.
     */
    public static final int OLDEST_READ = 2;

    /**
     * The version of the receipts it writes: a receipt is the same in both versions it reads, so it says the older,
     * and a peer not yet upgraded takes the receipts for its frames (and so releases their custody).
     */
    static final int RECEIPT_VERSION = OLDEST_READ;

    static final int KIND_DATA = 1;
    static final int KIND_RECEIPT = 2;
    static final int CRC_BYTES = 4;
    /** Version, kind, dictionary id, epoch and the longest seq: what a DATA frame adds at most around its block. */
    static final int DATA_OVERHEAD = 3 + 8 + 10 + CRC_BYTES;

    /** Most sequence numbers one receipt carries; the receiver sends more receipts for more. */
    public static final int MAX_RECEIPT_SEQS = 65_536;

    /** Default bound on what one DATA frame's block restores to. */
    public static final int DEFAULT_MAX_BLOCK_BYTES = 16 * 1024 * 1024;

    private final FrameCompression sending;
    private final Map<Integer, FrameCompression> known = new HashMap<>();
    private final int maxBlockBytes;

    /** A codec that sends with {@link KmtfDictionary#DEFLATE}. */
    public static FrameCodec standard() {
        return new FrameCodec(KmtfDictionary.DEFLATE);
    }

    /** A codec that sends with {@code sending} and reads it, {@link KmtfDictionary#DEFLATE} and no compression. */
    public FrameCodec(FrameCompression sending) {
        this(sending, List.of(FrameCompression.NONE, KmtfDictionary.DEFLATE), DEFAULT_MAX_BLOCK_BYTES);
    }

    /**
     * @param sending how DATA frames this codec writes are compressed
     * @param alsoRead the other compressions it reads
     * @param maxBlockBytes the most bytes a received block may restore to
     */
    public FrameCodec(FrameCompression sending, Collection<FrameCompression> alsoRead, int maxBlockBytes) {
        this.sending = sending;
        for (FrameCompression compression : alsoRead) {
            known.put(compression.id(), compression);
        }
        known.put(sending.id(), sending);
        this.maxBlockBytes = maxBlockBytes;
    }

    public FrameCompression sending() {
        return sending;
    }

    /** This codec sending with {@link FrameCompression#fastest()}: frames every reader of this one reads. */
    public FrameCodec fastest() {
        FrameCompression fastest = sending.fastest();
        return fastest == sending ? this : new FrameCodec(fastest, known.values(), maxBlockBytes);
    }

    /**
     * A DATA frame of these envelopes.
     *
     * @throws IllegalArgumentException if there are none, the sequence number is negative, or an envelope has what
     *         a receiver refuses (an overlong message id, a creation time transports do not carry)
     */
    public byte[] data(long epoch, long seq, List<RelayedEnvelope> envelopes) {
        if (envelopes.isEmpty()) {
            throw new IllegalArgumentException("A DATA frame carries at least one envelope");
        }
        ByteSink block = new ByteSink(4096);
        for (RelayedEnvelope envelope : envelopes) {
            EnvelopeRecords.checkSendable(envelope);
            EnvelopeRecords.write(envelope, block);
        }
        return data(epoch, seq, block.array(), block.size());
    }

    /** A DATA frame around the first {@code length} bytes of an uncompressed block. */
    byte[] data(long epoch, long seq, byte[] block, int length) {
        if (seq < 0) {
            throw new IllegalArgumentException("Sequence number " + seq + " is negative");
        }
        byte[] compressed = sending.compress(block, length);
        ByteSink frame = new ByteSink(compressed.length + DATA_OVERHEAD);
        frame.write(VERSION);
        frame.write(KIND_DATA);
        frame.write(sending.id());
        frame.writeLong(epoch);
        frame.writeVarLong(seq);
        frame.write(compressed);
        CRC32C crc = new CRC32C();
        crc.update(frame.array(), 0, frame.size());
        crc.update(block, 0, length);
        frame.writeInt((int) crc.getValue());
        return frame.toByteArray();
    }

    /**
     * A RECEIPT frame for these sequence numbers of the epoch, in any order, repeats ignored.
     *
     * @throws IllegalArgumentException if one is negative or there are more than {@link #MAX_RECEIPT_SEQS}
     */
    public byte[] receipt(long epoch, Collection<Long> seqs) {
        TreeSet<Long> sorted = new TreeSet<>(seqs);
        if (!sorted.isEmpty() && sorted.first() < 0) {
            throw new IllegalArgumentException("Sequence number " + sorted.first() + " is negative");
        }
        if (sorted.size() > MAX_RECEIPT_SEQS) {
            throw new IllegalArgumentException("A receipt carries at most " + MAX_RECEIPT_SEQS
                    + " sequence numbers, not " + sorted.size());
        }
        List<long[]> ranges = new ArrayList<>();
        for (long seq : sorted) {
            long[] last = ranges.isEmpty() ? null : ranges.getLast();
            if (last != null && last[1] + 1 == seq) {
                last[1] = seq;
            }
            else {
                ranges.add(new long[] { seq, seq });
            }
        }
        ByteSink frame = new ByteSink(16 + ranges.size() * 4);
        frame.write(RECEIPT_VERSION);
        frame.write(KIND_RECEIPT);
        frame.writeLong(epoch);
        frame.writeVarLong(ranges.size());
        long previousEnd = -2;
        for (long[] range : ranges) {
            // Ranges are apart by one missing seq at least, so the gap is written less 2 (0 for the first at 0).
            frame.writeVarLong(range[0] - previousEnd - 2);
            frame.writeVarLong(range[1] - range[0]);
            previousEnd = range[1];
        }
        return withCrc(frame);
    }

    private static byte[] withCrc(ByteSink frame) {
        CRC32C crc = new CRC32C();
        crc.update(frame.array(), 0, frame.size());
        frame.writeInt((int) crc.getValue());
        return frame.toByteArray();
    }

    /**
     * Reads a frame whole, or not at all.
     *
     * @throws FrameFormatException saying what is wrong: truncated, another version or kind, unknown dictionary,
     *         corrupt (CRC or compressed block), or a value no sender sends
     */
    public Frame decode(byte[] frame) throws FrameFormatException {
        if (frame.length < 2 + CRC_BYTES) {
            throw new FrameFormatException("Frame truncated: " + frame.length + " bytes is shorter than any frame");
        }
        int version = frame[0] & 0xFF;
        if (version < OLDEST_READ || version > VERSION) {
            throw new FrameFormatException("Unsupported frame version " + version + ": this gateway reads versions "
                    + OLDEST_READ + " to " + VERSION);
        }
        int end = frame.length - CRC_BYTES;
        long carried = ((frame[end] & 0xFFL) << 24) | ((frame[end + 1] & 0xFFL) << 16)
                | ((frame[end + 2] & 0xFFL) << 8) | (frame[end + 3] & 0xFFL);
        ByteSource in = new ByteSource(frame, 2, end);
        int kind = frame[1] & 0xFF;
        return switch (kind) {
            case KIND_DATA -> decodeData(frame, version, in, end, carried);
            case KIND_RECEIPT -> {
                checkCrc(carried, frame, end, null);
                yield decodeReceipt(in);
            }
            default -> throw new FrameFormatException("Unknown frame kind " + kind + " (DATA is 1, RECEIPT is 2)");
        };
    }

    private static void checkCrc(long carried, byte[] frame, int end, byte @Nullable [] block)
            throws FrameFormatException {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, end);
        if (block != null) {
            crc.update(block);
        }
        if (carried != crc.getValue()) {
            throw new FrameFormatException("Corrupt frame: CRC-32C mismatch over " + frame.length + " bytes "
                    + "(damaged, truncated, or its dictionary's bytes differ between the two ends)");
        }
    }

    private DataFrame decodeData(byte[] frame, int version, ByteSource in, int end, long carried)
            throws FrameFormatException {
        int dictionaryId = in.readByte("dictionary id");
        FrameCompression compression = known.get(dictionaryId);
        if (compression == null) {
            throw new FrameFormatException("Unknown dictionary id " + dictionaryId + " in a DATA frame: this gateway "
                    + "knows " + new TreeSet<>(known.keySet()) + "; both ends must run the same dictionaries");
        }
        long epoch = in.readLong("epoch");
        long seq = in.readVarLong("sequence number");
        if (seq < 0) {
            throw new FrameFormatException("Invalid frame: sequence number " + Long.toUnsignedString(seq)
                    + " is negative as a long");
        }
        int blockStart = in.position();
        byte[] block = compression.decompress(frame, blockStart, end - blockStart, maxBlockBytes);
        checkCrc(carried, frame, end, block);
        ByteSource records = new ByteSource(block, 0, block.length);
        List<RelayedEnvelope> envelopes = new ArrayList<>();
        while (records.hasRemaining()) {
            envelopes.add(EnvelopeRecords.read(records, version));
        }
        if (envelopes.isEmpty()) {
            throw new FrameFormatException("Invalid frame: DATA frame " + seq + " carries no envelope");
        }
        return new DataFrame(epoch, seq, envelopes);
    }

    private static ReceiptFrame decodeReceipt(ByteSource in) throws FrameFormatException {
        long epoch = in.readLong("epoch");
        int rangeCount = in.readCount("range count", MAX_RECEIPT_SEQS);
        TreeSet<Long> seqs = new TreeSet<>();
        long previousEnd = -2;
        for (int i = 0; i < rangeCount; i++) {
            long gap = in.readVarLong("range start");
            long span = in.readVarLong("range length");
            long start = previousEnd + 2 + gap;
            long rangeEnd = start + span;
            if (gap < 0 || span < 0 || start < 0 || rangeEnd < start
                    || seqs.size() + span + 1 > MAX_RECEIPT_SEQS) {
                throw new FrameFormatException("Invalid receipt: range " + i + " is out of bounds (sequence numbers"
                        + " 0 to " + Long.MAX_VALUE + ", at most " + MAX_RECEIPT_SEQS + " in one receipt)");
            }
            for (long k = 0; k <= span; k++) {
                seqs.add(start + k);
            }
            previousEnd = rangeEnd;
        }
        if (in.hasRemaining()) {
            throw new FrameFormatException("Invalid receipt: " + in.remaining() + " bytes follow its last range");
        }
        return new ReceiptFrame(epoch, seqs);
    }
}

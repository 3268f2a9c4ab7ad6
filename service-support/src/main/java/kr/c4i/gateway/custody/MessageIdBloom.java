package kr.c4i.gateway.custody;

import java.util.List;

/**
 * A Bloom filter of the message ids one custody log row names ({@code custody_log.ids_bloom}), which finds the row
 * again without an index entry per message: a reader scans the rows' filters ({@code custody_ids_bloom_has}, the same
 * probes in SQL: wan-store V15, db-bridge V17) and checks {@code message_ids} only where a filter answers maybe.
 * {@value #BITS_PER_ID} bits an id and {@value #PROBES} probes answer maybe for about one absent id in a hundred.
 *
 * <p>The hash is part of the stored format: a row written with one is found only by readers probing with the same.
 */
final class MessageIdBloom {

    static final int BITS_PER_ID = 10;

    static final int PROBES = 4;

    /** The smallest filter, for a row of one or a few ids. */
    static final int MIN_BYTES = 8;

    private MessageIdBloom() {
    }

    /** The filter of {@code ids}: {@value #BITS_PER_ID} bits an id, in whole bytes, at least {@value #MIN_BYTES}. */
    static byte[] of(List<String> ids) {
        byte[] bloom = new byte[Math.max(MIN_BYTES, (int) ((long) ids.size() * BITS_PER_ID + 7) / 8)];
        long bits = 8L * bloom.length;
        for (String id : ids) {
            long h = hash(id);
            for (int i = 0; i < PROBES; i++) {
                long bit = position(first(h), second(h), i, bits);
                bloom[(int) (bit >>> 3)] |= (byte) mask(bit);
            }
        }
        return bloom;
    }

    /** Whether {@code bloom} may hold {@code id}, as {@code custody_ids_bloom_has} answers in SQL. */
    static boolean mightContain(byte[] bloom, String id) {
        long bits = 8L * bloom.length;
        long h = hash(id);
        for (int i = 0; i < PROBES; i++) {
            long bit = position(first(h), second(h), i, bits);
            if ((bloom[(int) (bit >>> 3)] & mask(bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a reader probes a filter with: the first probe's position before the modulus and the step to the next,
     * each 31 bits of the id's hash (so SQL's sums stay far inside bigint), the step odd so that the probes differ.
     */
    static long[] probe(String id) {
        long h = hash(id);
        return new long[] {first(h), second(h)};
    }

    /** The bit the {@code i}-th probe tests, as {@code custody_ids_bloom_has} computes it. */
    private static long position(long first, long step, int i, long bits) {
        return (first + i * step) % bits;
    }

    /** A bit within its byte: PostgreSQL's get_bit counts a byte's bits from the least significant. */
    private static int mask(long bit) {
        return 1 << (bit & 7);
    }

    private static long first(long hash) {
        return hash >>> 33;
    }

    private static long second(long hash) {
        return (hash & 0x7fff_ffffL) | 1;
    }

    /** FNV-1a over the id's UTF-16 units, then SplitMix64's finalizer to spread alike ids apart. */
    private static long hash(String id) {
        long h = 0xcbf2_9ce4_8422_2325L;
        for (int i = 0; i < id.length(); i++) {
            h ^= id.charAt(i);
            h *= 0x0000_0100_0000_01b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return h ^ (h >>> 31);
    }
}

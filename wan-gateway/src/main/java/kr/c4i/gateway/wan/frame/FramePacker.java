package kr.c4i.gateway.wan.frame;

import java.util.Arrays;
import java.util.List;

import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * Packs as many envelopes as fit, compressed, into one DATA frame of at most a target size (the link's MTU payload).
 * A single envelope that alone is larger goes alone, up to the link's largest frame; larger still, it is refused.
 *
 * <p>Compressing once per added envelope would be quadratic, so the packer guesses how many fit from the compression
 * ratio it last saw, compresses once, and corrects with the ratio of that attempt: one more attempt to back off when
 * the guess overshot, or to take more when it left room. Rarely a third or more, one envelope less each.
 *
 * <p>Not thread-safe: one packer per sending thread.
 */
public final class FramePacker {

    /** Guess for the first frame: KMTF text with the dictionary compresses to about a third. */
    private static final double FIRST_RATIO = 0.4;

    private final FrameCodec codec;
    private final int targetBytes;
    private final int maxFrameBytes;
    private final ByteSink block = new ByteSink(64 * 1024);
    /** ends[i]: where the i-th serialized envelope ends in the block; ends[0] is 0. */
    private int[] ends = new int[64];
    private int serialized;
    private double ratio = FIRST_RATIO;
    private long compressions;

    /**
     * @param targetBytes the size no frame of several envelopes exceeds
     * @param maxFrameBytes the size no frame exceeds: the link's {@code maxFrameBytes()}
     */
    public FramePacker(FrameCodec codec, int targetBytes, int maxFrameBytes) {
        if (targetBytes < FrameCodec.DATA_OVERHEAD + 16 || maxFrameBytes < targetBytes) {
            throw new IllegalArgumentException("Target frame size " + targetBytes + " must be at least "
                    + (FrameCodec.DATA_OVERHEAD + 16) + " bytes and at most the largest frame, " + maxFrameBytes);
        }
        this.codec = codec;
        this.targetBytes = targetBytes;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** How many times it compressed a block so far: a measure of how well it guesses. */
    public long compressions() {
        return compressions;
    }

    /**
     * Packs the first of {@code candidates} (in the scheduler's order, as many as might fit) into one DATA frame.
     *
     * @throws OversizeEnvelopeException if the first candidate alone makes a frame larger than the link takes
     * @throws IllegalArgumentException if there is no candidate or one has what a receiver refuses
     */
    public PackedFrame pack(long epoch, long seq, List<RelayedEnvelope> candidates) throws OversizeEnvelopeException {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("Nothing to pack");
        }
        block.truncate(0);
        serialized = 0;
        int count = fitting(1, candidates.size(), candidates);
        byte[] frame = compress(epoch, seq, count);
        if (frame.length <= targetBytes) {
            // Room left? One attempt with as many more as the ratio just seen says fit.
            int more = count < candidates.size() ? fitting(count, candidates.size(), candidates) : count;
            if (more > count) {
                byte[] larger = compress(epoch, seq, more);
                if (larger.length <= targetBytes) {
                    return new PackedFrame(larger, more, ends[more]);
                }
            }
            return new PackedFrame(frame, count, ends[count]);
        }
        // Too large: back off to what the ratio just seen says fits, then one envelope less each time.
        while (count > 1) {
            count = fitting(1, count - 1, candidates);
            frame = compress(epoch, seq, count);
            if (frame.length <= targetBytes) {
                return new PackedFrame(frame, count, ends[count]);
            }
        }
        if (frame.length > maxFrameBytes) {
            RelayedEnvelope first = candidates.getFirst();
            throw new OversizeEnvelopeException(first.messageId(), EnvelopeRecords.describe(first), frame.length,
                    maxFrameBytes);
        }
        return new PackedFrame(frame, 1, ends[1]);
    }

    /** The most envelopes from {@code atLeast} to {@code atMost} whose estimated frame fits the target. */
    private int fitting(int atLeast, int atMost, List<RelayedEnvelope> candidates) {
        while (serialized < atLeast) {
            serialize(candidates.get(serialized));
        }
        int count = atLeast;
        while (count < atMost) {
            if (serialized == count) {
                serialize(candidates.get(serialized));
            }
            if (estimate(ends[count + 1]) > targetBytes) {
                break;
            }
            count++;
        }
        return count;
    }

    private void serialize(RelayedEnvelope envelope) {
        EnvelopeRecords.checkSendable(envelope);
        EnvelopeRecords.write(envelope, block);
        serialized++;
        if (serialized >= ends.length) {
            ends = Arrays.copyOf(ends, ends.length * 2);
        }
        ends[serialized] = block.size();
    }

    private long estimate(int rawBytes) {
        return FrameCodec.DATA_OVERHEAD + Math.round(rawBytes * ratio);
    }

    private byte[] compress(long epoch, long seq, int count) {
        compressions++;
        byte[] frame = codec.data(epoch, seq, block.array(), ends[count]);
        ratio = Math.max(0.01, (double) (frame.length - FrameCodec.DATA_OVERHEAD) / ends[count]);
        return frame;
    }
}

package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.List;

import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.wan.frame.FrameCompression;

/**
 * What the WAN link's compression makes of a cell's bodies: their bytes after compression over their bytes before.
 * The gateways count the bytes of their frames but not what those held before compression, so the harness computes
 * it with the link's own compressor, packing the bodies as the link packs messages: one after another into blocks
 * that each compress to at most a frame (a body that alone compresses to more goes alone). The frame sizes and the
 * fast links' Deflate level are wan-gateway's ({@code RelayEngine.frameBytes} and {@code codecFor}), restated here
 * because they are internal to it.
 */
public final class LinkCompression {

    /** The gateways' frame target ({@code gateway.wan.frame-target}): the payload of one datagram. */
    public static final int FRAME_TARGET_BYTES = 1200;
    /** Frames from this size on are compressed at Deflate's fastest level. */
    private static final int FAST_LINK_FRAME_BYTES = 16 * 1024;
    /** A fast link's frames carry this much of its budget. */
    private static final Duration FRAME_TIME = Duration.ofMillis(10);

    private LinkCompression() {
    }

    /**
     * The ratio of a variant's bodies on a link at a budget, in frames of the size the gateways fill there.
     *
     * @throws IllegalArgumentException if there are no bodies
     */
    static double ratio(WanVariant variant, WanLinkKind link, long budgetBitsPerSecond, List<byte[]> bodies) {
        int frameBytes = frameBytes(link, budgetBitsPerSecond);
        FrameCompression compression = frameBytes >= FAST_LINK_FRAME_BYTES ? variant.compression().fastest()
                : variant.compression();
        return ratio(compression, bodies, frameBytes);
    }

    /**
     * The size the gateways fill a frame to: the frame target, or 10 ms of the budget where that is more, up to the
     * link's largest frame (one NORM segment of 1,400 bytes; 64 KiB on the jms and dds links).
     */
    static int frameBytes(WanLinkKind link, long budgetBitsPerSecond) {
        int largest = link == WanLinkKind.NORM ? 1400 : 64 * 1024;
        long linkTime = budgetBitsPerSecond / 8 * FRAME_TIME.toMillis() / 1000;
        return (int) Math.max(FRAME_TARGET_BYTES, Math.min(largest, linkTime));
    }

    /**
     * Bytes after compression over bytes before: 1 for {@link FrameCompression#NONE}.
     *
     * @throws IllegalArgumentException if there are no bodies
     */
    static double ratio(FrameCompression compression, List<byte[]> bodies, int frameBytes) {
        if (bodies.isEmpty()) {
            throw new IllegalArgumentException("no bodies to compress");
        }
        long before = 0;
        long after = 0;
        int first = 0;
        while (first < bodies.size()) {
            int end = blockEnd(compression, bodies, first, frameBytes);
            byte[] block = block(bodies, first, end);
            before += block.length;
            after += compression.compress(block, block.length).length;
            first = end;
        }
        return (double) after / before;
    }

    /**
     * The end of the block that starts at {@code first}: the most bodies whose block still compresses to a frame,
     * found by doubling and then halving, so a block of k bodies costs about 2 log k compressions, not k.
     */
    private static int blockEnd(FrameCompression compression, List<byte[]> bodies, int first, int frameBytes) {
        int fits = first + 1;
        int tooMany;
        while (true) {
            int doubled = Math.min(bodies.size(), first + 2 * (fits - first));
            if (doubled == fits) {
                return fits;
            }
            if (!fits(compression, bodies, first, doubled, frameBytes)) {
                tooMany = doubled;
                break;
            }
            fits = doubled;
        }
        while (tooMany - fits > 1) {
            int middle = (fits + tooMany) >>> 1;
            if (fits(compression, bodies, first, middle, frameBytes)) {
                fits = middle;
            }
            else {
                tooMany = middle;
            }
        }
        return fits;
    }

    private static boolean fits(FrameCompression compression, List<byte[]> bodies, int first, int end,
            int frameBytes) {
        byte[] block = block(bodies, first, end);
        return compression.compress(block, block.length).length <= frameBytes;
    }

    private static byte[] block(List<byte[]> bodies, int first, int end) {
        int length = 0;
        for (int i = first; i < end; i++) {
            length += bodies.get(i).length;
        }
        byte[] block = new byte[length];
        int at = 0;
        for (int i = first; i < end; i++) {
            byte[] body = bodies.get(i);
            System.arraycopy(body, 0, block, at, body.length);
            at += body.length;
        }
        return block;
    }
}

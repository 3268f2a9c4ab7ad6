package kr.c4i.gateway.wan.frame;

import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Raw Deflate (RFC 1951, no zlib header or checksum: the frame has its own CRC) with a preset dictionary both ends
 * hold. Java's zlib. Deflaters and inflaters are reused (reset, not reallocated): allocating zlib's state for every
 * frame costs more than compressing a frame.
 */
public final class DeflateCompression implements FrameCompression {

    private final int id;
    private final String name;
    private final byte[] dictionary;
    private final int level;
    private final Queue<Deflater> deflaters = new ConcurrentLinkedQueue<>();
    private final Queue<Inflater> inflaters = new ConcurrentLinkedQueue<>();

    /**
     * @param id the dictionary id frames carry
     * @param dictionary at most the 32 KiB Deflate can refer back to; the last bytes are the cheapest to refer to
     * @param level the Deflate level, 1 (fastest) to 9 (smallest)
     */
    public DeflateCompression(int id, String name, byte[] dictionary, int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("Deflate level " + level + " is out of range 1..9");
        }
        if (id < 1 || id > 255) {
            throw new IllegalArgumentException("Dictionary id " + id + " is out of range 1..255");
        }
        if (dictionary.length > 32 * 1024) {
            throw new IllegalArgumentException("A Deflate dictionary is at most 32768 bytes, not " + dictionary.length);
        }
        this.id = id;
        this.name = name;
        this.dictionary = dictionary.clone();
        this.level = level;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * This dictionary at Deflate's fastest level, 1. On 64 KiB frames of 200-byte KMTF messages (wan-bench's
     * throughput) level 6 took 22 us of CPU per message and level 1 6.4 us, for 72 and 88 bytes per message.
     */
    @Override
    public DeflateCompression fastest() {
        int fastest = Deflater.BEST_SPEED;
        return level == fastest ? this : new DeflateCompression(id, name + " at level " + fastest, dictionary, fastest);
    }

    @Override
    public byte[] compress(byte[] block, int length) {
        Deflater deflater = deflaters.poll();
        if (deflater == null) {
            deflater = new Deflater(level, true);
        }
        try {
            if (dictionary.length > 0) {
                deflater.setDictionary(dictionary);
            }
            deflater.setInput(block, 0, length);
            deflater.finish();
            byte[] out = new byte[length + length / 1000 + 64];
            int size = 0;
            while (!deflater.finished()) {
                if (size == out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                size += deflater.deflate(out, size, out.length - size);
            }
            return Arrays.copyOf(out, size);
        }
        finally {
            deflater.reset();
            deflaters.offer(deflater);
        }
    }

    @Override
    public byte[] decompress(byte[] frame, int offset, int length, int maxLength) throws FrameFormatException {
        Inflater inflater = inflaters.poll();
        if (inflater == null) {
            inflater = new Inflater(true);
        }
        try {
            if (dictionary.length > 0) {
                inflater.setDictionary(dictionary);
            }
            inflater.setInput(frame, offset, length);
            byte[] out = new byte[Math.min(maxLength, Math.max(256, length * 4))];
            int size = 0;
            while (!inflater.finished()) {
                if (size == out.length) {
                    if (out.length >= maxLength) {
                        throw new FrameFormatException("Invalid frame: block restores to more than " + maxLength
                                + " bytes");
                    }
                    out = Arrays.copyOf(out, (int) Math.min(maxLength, out.length * 2L));
                }
                int n = inflater.inflate(out, size, out.length - size);
                if (n == 0 && !inflater.finished() && size < out.length
                        && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new FrameFormatException("Invalid frame: compressed block is truncated");
                }
                size += n;
            }
            if (inflater.getRemaining() != 0) {
                throw new FrameFormatException("Invalid frame: " + inflater.getRemaining()
                        + " bytes follow the compressed block");
            }
            return Arrays.copyOf(out, size);
        }
        catch (DataFormatException ex) {
            throw new FrameFormatException("Invalid frame: compressed block is corrupt (" + ex.getMessage() + ")", ex);
        }
        finally {
            inflater.reset();
            inflaters.offer(inflater);
        }
    }
}

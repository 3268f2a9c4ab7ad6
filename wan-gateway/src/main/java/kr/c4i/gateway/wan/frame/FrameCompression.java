package kr.c4i.gateway.wan.frame;

/**
 * How a DATA frame's block of envelopes is compressed, named in the frame by its dictionary id so both ends agree.
 * Implementations are thread-safe.
 */
public interface FrameCompression {

    /** The id written into each DATA frame, 0 to 255; a receiver that does not know it refuses the frame. */
    int id();

    /** A short name for logs and benchmark tables. */
    String name();

    /** Compresses {@code length} bytes of {@code block} from its start as one self-contained block. */
    byte[] compress(byte[] block, int length);

    /**
     * Restores a block {@link #compress} made.
     *
     * @param maxLength the most bytes the block may restore to; more is refused (a bomb or corruption)
     * @throws FrameFormatException if the bytes are not exactly one compressed block or restore to too much
     */
    byte[] decompress(byte[] frame, int offset, int length, int maxLength) throws FrameFormatException;

    /**
     * The same compression (same id, so any receiver of this one reads it) at the setting that costs the least CPU:
     * what a link fast enough that CPU per message counts more than bytes sends with. By default this one.
     */
    default FrameCompression fastest() {
        return this;
    }

    /** No compression (id 0): the block as it is, for measurements and tests. */
    FrameCompression NONE = new FrameCompression() {

        @Override
        public int id() {
            return 0;
        }

        @Override
        public String name() {
            return "none";
        }

        @Override
        public byte[] compress(byte[] block, int length) {
            return java.util.Arrays.copyOf(block, length);
        }

        @Override
        public byte[] decompress(byte[] frame, int offset, int length, int maxLength) throws FrameFormatException {
            if (length > maxLength) {
                throw new FrameFormatException("Invalid frame: block of " + length + " bytes, at most " + maxLength);
            }
            return java.util.Arrays.copyOfRange(frame, offset, offset + length);
        }
    };
}

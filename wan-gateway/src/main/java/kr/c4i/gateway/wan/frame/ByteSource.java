package kr.c4i.gateway.wan.frame;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads what {@link ByteSink} wrote, from a bounded slice: every read past the end, overlong varint or malformed UTF-8
 * is a {@link FrameFormatException} naming what was being read.
 */
final class ByteSource {

    private final byte[] bytes;
    private int position;
    private final int end;

    ByteSource(byte[] bytes, int offset, int end) {
        this.bytes = bytes;
        this.position = offset;
        this.end = end;
    }

    int position() {
        return position;
    }

    int remaining() {
        return end - position;
    }

    boolean hasRemaining() {
        return position < end;
    }

    private void need(int count, String what) throws FrameFormatException {
        if (count < 0 || count > end - position) {
            throw new FrameFormatException("Frame truncated: " + what + " needs " + count + " bytes, "
                    + (end - position) + " left");
        }
    }

    int readByte(String what) throws FrameFormatException {
        need(1, what);
        return bytes[position++] & 0xFF;
    }

    long readLong(String what) throws FrameFormatException {
        need(8, what);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[position++] & 0xFF);
        }
        return value;
    }

    byte[] readBytes(int count, String what) throws FrameFormatException {
        need(count, what);
        byte[] out = Arrays.copyOfRange(bytes, position, position + count);
        position += count;
        return out;
    }

    long readVarLong(String what) throws FrameFormatException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte(what);
            if (shift == 63 && (b & 0xFE) != 0) {
                break;
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new FrameFormatException("Invalid frame: " + what + " is not a 64-bit varint");
    }

    long readZigZag(String what) throws FrameFormatException {
        long raw = readVarLong(what);
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** A count or length that must fit an int and be at most {@code max}. */
    int readCount(String what, long max) throws FrameFormatException {
        long value = readVarLong(what);
        if (value < 0 || value > max) {
            throw new FrameFormatException("Invalid frame: " + what + " is " + Long.toUnsignedString(value)
                    + ", at most " + max + " allowed here");
        }
        return (int) value;
    }

    String readString(String what) throws FrameFormatException {
        int length = readCount(what + " length", remaining());
        try {
            String value = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, position, length)).toString();
            position += length;
            return value;
        }
        catch (CharacterCodingException ex) {
            throw new FrameFormatException("Invalid frame: " + what + " is not UTF-8", ex);
        }
    }
}

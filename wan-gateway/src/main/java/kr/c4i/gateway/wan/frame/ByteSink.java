package kr.c4i.gateway.wan.frame;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array with the frame format's primitives: unsigned LEB128 varints, length-prefixed UTF-8. */
final class ByteSink {

    private byte[] bytes;
    private int size;

    ByteSink(int capacity) {
        this.bytes = new byte[Math.max(16, capacity)];
    }

    int size() {
        return size;
    }

    byte[] array() {
        return bytes;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    void truncate(int newSize) {
        size = newSize;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    void write(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    void write(byte[] b, int offset, int length) {
        ensure(length);
        System.arraycopy(b, offset, bytes, size, length);
        size += length;
    }

    void write(byte[] b) {
        write(b, 0, b.length);
    }

    void writeLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (value >>> shift);
        }
    }

    void writeInt(int value) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (value >>> shift);
        }
    }

    /** An unsigned varint: 7 bits a byte, low bits first, high bit set on every byte but the last. */
    void writeVarLong(long value) {
        ensure(10);
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        bytes[size++] = (byte) rest;
    }

    /** A signed value as a varint, zig-zag encoded so that small negative values stay short. */
    void writeZigZag(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    void writeString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(utf8.length);
        write(utf8);
    }
}

package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Whatever arrives, decoding either gives a whole frame or a FrameFormatException; nothing else escapes. */
class FrameFuzzTest {

    private static final FrameCodec CODEC = new FrameCodec(KmtfDictionary.DEFLATE,
            List.of(FrameCompression.NONE), 1024 * 1024);
    private static final FrameCodec PLAIN = new FrameCodec(FrameCompression.NONE);
    private static final List<byte[]> VALID = List.of(
            CODEC.data(3, 4, new TestEnvelopes(11).list(5, 50, 700)),
            PLAIN.data(3, 4, new TestEnvelopes(12).list(3, 50, 300)),
            CODEC.receipt(3, List.of(1L, 2L, 3L, 10L, 400L)));

    @Property(tries = 2000)
    void randomBytesAreRefusedCleanly(@ForAll @Size(max = 2000) byte[] bytes) {
        assertOnlyFrameFormatException(bytes);
    }

    @Property(tries = 1000)
    void randomBytesBehindAValidHeaderAreRefusedCleanly(@ForAll("headers") byte[] header,
            @ForAll @Size(max = 600) byte[] rest) {
        byte[] bytes = Arrays.copyOf(header, header.length + rest.length);
        System.arraycopy(rest, 0, bytes, header.length, rest.length);
        assertOnlyFrameFormatException(bytes);
    }

    @Property(tries = 1000)
    void truncatedOrDamagedValidFramesAreRefused(@ForAll @IntRange(min = 0, max = 2) int which,
            @ForAll @IntRange(min = 0, max = 100_000) int cut, @ForAll @IntRange(min = 0, max = 100_000) int at,
            @ForAll @IntRange(min = 1, max = 255) int xor) {
        byte[] frame = VALID.get(which);
        assertThat(outcome(Arrays.copyOf(frame, cut % frame.length))).isInstanceOf(FrameFormatException.class);
        byte[] damaged = frame.clone();
        damaged[at % frame.length] ^= (byte) xor;
        assertThat(outcome(damaged)).isInstanceOf(FrameFormatException.class);
    }

    @Provide
    Arbitrary<byte[]> headers() {
        return Arbitraries.of(new byte[] { 1, 1, 0 }, new byte[] { 1, 1, 1 }, new byte[] { 1, 2 });
    }

    private static void assertOnlyFrameFormatException(byte[] bytes) {
        Object outcome = outcome(bytes);
        assertThat(outcome).isInstanceOfAny(Frame.class, FrameFormatException.class);
    }

    /** The decoded frame or the exception thrown; anything but these two fails the property where it is thrown. */
    private static Object outcome(byte[] bytes) {
        try {
            return CODEC.decode(bytes);
        }
        catch (FrameFormatException ex) {
            return ex;
        }
    }
}

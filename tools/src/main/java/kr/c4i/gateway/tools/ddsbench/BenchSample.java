package kr.c4i.gateway.tools.ddsbench;

import java.util.Objects;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.SampleCodec;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.SampleEncoder;

/**
 * The benchmark's sample, {@code @final struct bench::Sample { unsigned long long seq; long long sent_at_ns;
 * sequence<octet> payload; }}: 20 bytes of CDR before the payload, so {@link #ofSize} gives the same serialised
 * size as ddsperf's {@code size} (its KS topic: seq, key and the sequence length, 12 bytes, then the rest).
 *
 * @param seq numbers samples from 1, for the loss check
 * @param sentAtNanos {@link System#nanoTime()} of the sender, echoed by the pong
 * @param payload padding
 */
public record BenchSample(long seq, long sentAtNanos, byte[] payload) {

    /** CDR bytes before the payload: two 8-byte integers and the sequence length. */
    public static final int OVERHEAD = 20;

    public static final DataType<BenchSample> TYPE = DataType.<BenchSample>builder("bench::Sample")
            .uint64("seq")
            .int64("sent_at_ns")
            .octets("payload")
            .build(new SampleCodec<>() {

                @Override
                public void encode(BenchSample sample, SampleEncoder out) {
                    out.uint64(sample.seq());
                    out.int64(sample.sentAtNanos());
                    out.octets(sample.payload());
                }

                @Override
                public BenchSample decode(SampleDecoder in) {
                    return new BenchSample(in.uint64(), in.int64(), in.octets());
                }
            });

    public BenchSample {
        Objects.requireNonNull(payload, "payload");
    }

    /** A payload that makes the serialised sample {@code size} bytes (at least {@link #OVERHEAD}). */
    public static byte[] payloadFor(int size) {
        byte[] payload = new byte[Math.max(0, size - OVERHEAD)];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        return payload;
    }
}

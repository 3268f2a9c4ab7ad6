package kr.c4i.gateway.dds.transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketListener;

import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;

/**
 * Spreads the samples {@code send} writes over time at a set bit rate, a datagram's worth at a time. Cyclone 0.10 hands a whole batch to the
 * network at once and has no congestion control: on a slow link the shaper's queue then holds seconds of data, and
 * heartbeats that overtake the queued data make readers ask for samples still on their way, so the link carries
 * them again. Written at the link's pace, the queue stays short and a lost sample is repaired within a round trip.
 *
 * <p>The pace counts each sample's payload plus {@link #SAMPLE_OVERHEAD_BYTES}; Cyclone's own retransmits,
 * heartbeats and discovery are not paced, so the rate should leave room for them (the link rate less the share
 * loss will take, and some).
 */
final class SendPacer {

    /**
     * RTPS, UDP, IP and Ethernet headers and the sample's fixed fields around its strings and body: a 200-byte body
     * took 371 bytes on the wire in the lossless calibration of {@code bin/scenarios}.
     */
    static final int SAMPLE_OVERHEAD_BYTES = 120;

    private final Bucket bucket;
    private final long burstBytes;
    private final long bitsPerSecond;
    private final LongAdder parkedNanos = new LongAdder();

    /**
     * @param bitsPerSecond the pace
     * @param burstBytes how much may leave back to back after an idle spell (one datagram keeps the queue short)
     */
    SendPacer(long bitsPerSecond, int burstBytes) {
        if (bitsPerSecond < 8 || burstBytes < 1) {
            throw new IllegalArgumentException("A send pace needs at least 8 bit/s and a burst of a byte, was "
                    + bitsPerSecond + " bit/s and " + burstBytes + " B");
        }
        this.bitsPerSecond = bitsPerSecond;
        this.burstBytes = burstBytes;
        long bytesPerSecond = bitsPerSecond / 8;
        this.bucket = Bucket.builder()
                .addLimit(limit -> limit.capacity(burstBytes).refillGreedy(bytesPerSecond, Duration.ofSeconds(1)))
                .withNanosecondPrecision()
                .withListener(new ParkedTime(this.parkedNanos))
                .build();
    }

    /** Waits until {@code bytes} more may leave at the pace. */
    void pace(long bytes) throws InterruptedException {
        long left = bytes;
        while (left > 0) {
            long chunk = Math.min(left, this.burstBytes);
            this.bucket.asBlocking().consume(chunk);
            left -= chunk;
        }
    }

    /** What the pace counts for a sample: its variable-length parts and the fixed overhead. */
    static long wireBytes(KmtfMessageSample sample) {
        return SAMPLE_OVERHEAD_BYTES + sample.body().length + utf8(sample.messageId()) + utf8(sample.origin())
                + utf8(sample.messageType()) + utf8(sample.classification());
    }

    long bitsPerSecond() {
        return this.bitsPerSecond;
    }

    long burstBytes() {
        return this.burstBytes;
    }

    /** Time {@code send} has spent waiting for the pace. */
    Duration parked() {
        return Duration.ofNanos(this.parkedNanos.sum());
    }

    private static int utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static final class ParkedTime implements BucketListener {

        private final LongAdder nanos;

        ParkedTime(LongAdder nanos) {
            this.nanos = nanos;
        }

        @Override
        public void onParked(long parked) {
            this.nanos.add(parked);
        }

        @Override
        public void onConsumed(long tokens) {
        }

        @Override
        public void onRejected(long tokens) {
        }

        @Override
        public void onInterrupted(InterruptedException ex) {
        }

        @Override
        public void onDelayed(long nanos) {
        }
    }
}

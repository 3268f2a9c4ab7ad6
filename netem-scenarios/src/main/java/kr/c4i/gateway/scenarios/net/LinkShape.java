package kr.c4i.gateway.scenarios.net;

/**
 * How a host's link is impaired: its rate in both directions, the random loss of every frame the host sends,
 * and the queue in front of the shaper.
 *
 * @param rate link rate, applied to the host's egress and to its switch port's egress (towards the host)
 * @param loss probability in [0, 0.9] that a frame the host sends is dropped at its switch port
 * @param queuePackets full-size (1,514-byte) frames each shaper may queue before it drops
 */
public record LinkShape(Rate rate, double loss, int queuePackets) {

    /** Bytes of a full Ethernet frame without FCS: what one queued packet may take. */
    public static final int FRAME_BYTES = 1514;

    /** TCP payload of a full frame (1,514 bytes less Ethernet, IP and TCP headers with timestamps). */
    public static final int TCP_PAYLOAD_BYTES = 1448;

    /** The shaper's smallest bucket: one full frame plus headroom. */
    static final int MIN_BURST_BYTES = 1600;

    public LinkShape {
        if (rate == null) {
            throw new IllegalArgumentException("rate must be set");
        }
        if (!(loss >= 0 && loss <= 0.9)) {
            throw new IllegalArgumentException("loss must be between 0 and 0.9, was " + loss);
        }
        if (queuePackets < 2 || queuePackets > 100_000) {
            throw new IllegalArgumentException("queue must be between 2 and 100000 packets, was " + queuePackets);
        }
    }

    /** TBF bucket: {@code max(1600, rate x 4 ms)} bytes, measured here to reach 97-99% of the ceiling. */
    public long burstBytes() {
        return Math.max(MIN_BURST_BYTES, Math.round(rate.bytesPerSecond() * 0.004));
    }

    /**
     * The link's rate less the header allowance of full frames ({@code rate x 1448 / 1514}): the payload ceiling a
     * sender can fill, measured here at 97-99%, and the WAN gateway's budget on this link.
     */
    public long payloadBitsPerSecond() {
        return Math.round(rate.bitsPerSecond() * (double) TCP_PAYLOAD_BYTES / FRAME_BYTES);
    }

    /** TBF queue limit in bytes. */
    public long limitBytes() {
        return (long) queuePackets * FRAME_BYTES;
    }

    /** How long a full queue takes to drain at the link rate, in milliseconds. */
    public double queueMillis() {
        return limitBytes() * 1000.0 / rate.bytesPerSecond();
    }

    /** Loss in thousandths, the unit of the nftables rule ({@code numgen random mod 1000 < n}). */
    public int lossPerMille() {
        return (int) Math.round(loss * 1000);
    }

    /** Loss as netem takes it, e.g. {@code 10%} or {@code 2.5%}. */
    public String lossPercent() {
        double percent = lossPerMille() / 10.0;
        return (percent == Math.rint(percent) ? Long.toString((long) percent) : Double.toString(percent)) + "%";
    }
}

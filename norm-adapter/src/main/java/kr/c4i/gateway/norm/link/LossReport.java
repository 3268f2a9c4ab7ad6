package kr.c4i.gateway.norm.link;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a link's sending session tells the peers it reaches about loss: for each peer it hears, what it measured of
 * that peer's packets ({@link LossWindow}). It travels as the NORM info of an object of its own, one byte of data, so
 * the report is itself a sample: a link learns the loss of its own packets from the peer's tally of them and chooses
 * its parity from that ({@link ParityPolicy}).
 *
 * <p><b>Why NORM info.</b> NORM 1.5.9 tells its application nothing of loss. The sender sees no NACK (repair is
 * internal, and {@code NORM_TX_OBJECT_SENT} comes once per object, after its first pass), the receiver sees objects
 * only as they complete, and NORM's own loss estimate (its congestion control's) and its periodic report go only to
 * the debug log, which Debian's build leaves out. NACKs would in any case show only the frames parity did not repair:
 * the link could raise its parity from them but never see that it may lower it. An application command
 * ({@code NormSendCommand}), one packet sent once, would show the raw loss, but 1.5.9's receiver reuses its command
 * buffers without unlinking them ({@code NormSenderNode::HandleCommand}): once two commands waited at once, stale
 * ones came back and closing the session freed buffers twice (glibc aborted the JVM). An object's info is sent first,
 * once, in a packet of its own with no parity; if it is lost the data arrives first ({@code NORM_RX_OBJECT_UPDATED}
 * before {@code NORM_RX_OBJECT_INFO}) and the info is repaired. So each object with info is one sample of the raw
 * loss. When the data and all its parity are lost as well, NORM repairs the info first again and the sample reads
 * "arrived": the measure is p(1 - p^(k+1)), 21% for 30% loss without parity and 29.8% with 3 segments, which at most
 * delays the rise by a step and is exact where the parity comes down.
 *
 * <p>The reports take {@value #SHARE_PERCENT}% of the session's rate, at most one per {@link NormWanLink#CHECK_MILLIS}
 * ms: one every 0.5 s at 128 kbit/s without parity. Wire (the info): the kind byte {@code L}, the number of tallies
 * (short), then per tally the peer's NORM node id (int), the samples the window holds and those of them lost, the
 * recent samples and those of them lost (shorts), big-endian.
 */
record LossReport(List<Tally> tallies) {

    static final byte KIND = 'L';
    /** The report object's data: NORM sends no empty object. */
    static final byte[] DATA = {KIND};
    static final int SHARE_PERCENT = 2;
    /** NORM's header on an info message: the object header and the FEC transmission information. */
    static final int NORM_INFO_HEADER_BYTES = 32;
    private static final int TALLY_BYTES = 12;

    /**
     * What one link measured of a peer's packets: of the last {@code samples}, {@code lost} were lost; of the last
     * {@code recentSamples} of those, {@code recentLost}.
     */
    record Tally(int nodeId, int samples, int lost, int recentSamples, int recentLost) {

        /** The standard normal quantile of a one-sided 95% bound. */
        private static final double Z_95 = 1.6449;

        static Tally of(int nodeId, LossWindow window) {
            return new Tally(nodeId, window.samples(), window.lost(), window.recentSamples(), window.recentLost());
        }

        /** The share lost of all the samples. */
        double loss() {
            return (double) this.lost / this.samples;
        }

        /**
         * What the parity follows: the share lost of all the samples, or of the recent ones when more of those were
         * lost, so the parity rises as soon as loss starts and comes down only once the whole window allows it.
         */
        double parityLoss() {
            double recent = this.recentSamples < LossWindow.RECENT ? 0 : (double) this.recentLost / this.recentSamples;
            return Math.max(loss(), recent);
        }

        /**
         * What the parity of urgent frames only follows, from a link's first sample on: the most loss its samples
         * allow (the upper end of a one-sided 95% Wilson interval), and once a recent sample was lost the most the
         * recent samples allow. A young link starts cautious and comes down as clean samples come in (none lost of
         * 6 reads 31%, of 20 11.9%, of 200 1.3%: one segment at a 1% target on a clean link), so the urgent frames of
         * its first seconds do not go bare before any loss could show; loss that starts raises it with its first lost
         * recent sample (one of 32 reads 12.9%, four 25.1%), where the estimate waits for several. An urgent frame
         * sent with too little parity waits a repair round, seconds across a satellite hop, where a parity segment too
         * many costs it a packet.
         */
        double urgentParityLoss() {
            double bound = upperBound(this.samples, this.lost);
            return this.recentLost > 0 ? Math.max(bound, upperBound(this.recentSamples, this.recentLost)) : bound;
        }

        /** The upper end of the one-sided 95% Wilson interval of {@code lost} of {@code n}; 1 for no sample. */
        static double upperBound(int n, int lost) {
            if (n <= 0) {
                return 1;
            }
            double p = Math.min(1, (double) lost / n);
            double z2 = Z_95 * Z_95;
            double centre = p + z2 / (2 * n);
            double spread = Z_95 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
            return Math.min(1, (centre + spread) / (1 + z2 / n));
        }
    }

    LossReport {
        tallies = List.copyOf(tallies);
    }

    byte[] bytes() {
        ByteBuffer buffer = ByteBuffer.allocate(3 + TALLY_BYTES * this.tallies.size()).put(KIND)
                .putShort((short) this.tallies.size());
        for (Tally tally : this.tallies) {
            buffer.putInt(tally.nodeId()).putShort((short) tally.samples()).putShort((short) tally.lost())
                    .putShort((short) tally.recentSamples()).putShort((short) tally.recentLost());
        }
        return buffer.array();
    }

    /**
     * The report in an object's {@code info}; null when it is none (a frame's or a probe's, cut short, or a tally that
     * counts more lost than sampled: a share over 1 the parity could not follow).
     */
    static @Nullable LossReport parse(byte[] info) {
        if (info.length < 3 || info[0] != KIND) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(info, 1, info.length - 1);
        try {
            int count = Short.toUnsignedInt(buffer.getShort());
            List<Tally> tallies = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Tally tally = new Tally(buffer.getInt(), Short.toUnsignedInt(buffer.getShort()),
                        Short.toUnsignedInt(buffer.getShort()), Short.toUnsignedInt(buffer.getShort()),
                        Short.toUnsignedInt(buffer.getShort()));
                if (tally.lost() > tally.samples() || tally.recentSamples() > tally.samples()
                        || tally.recentLost() > tally.recentSamples()) {
                    return null;
                }
                tallies.add(tally);
            }
            return new LossReport(tallies);
        }
        catch (BufferUnderflowException ex) {
            return null;
        }
    }

    /** What the sender of this report measured of node {@code nodeId}'s packets; null when it hears none of it. */
    @Nullable Tally tallyOf(int nodeId) {
        return this.tallies.stream().filter(tally -> tally.nodeId() == nodeId).findFirst().orElse(null);
    }

    /**
     * How long a session waits after a report of {@code infoBytes} so that its reports take {@value #SHARE_PERCENT}%
     * of its rate: the info packet, the data packet and {@code parity} parity packets each, on the wire; at least
     * {@link NormWanLink#CHECK_MILLIS} ms.
     */
    static long intervalNanos(int infoBytes, int parity, double rateBitsPerSecond) {
        int dataPacket = NormLinkSettings.WIRE_HEADER_BYTES + NormLinkSettings.NORM_DATA_HEADER_BYTES + DATA.length;
        int infoPacket = NormLinkSettings.WIRE_HEADER_BYTES + NORM_INFO_HEADER_BYTES + infoBytes;
        double bits = 8.0 * (infoPacket + (1 + parity) * dataPacket);
        double seconds = bits * 100 / (SHARE_PERCENT * rateBitsPerSecond);
        return Math.max(Math.round(seconds * 1e9), NormWanLink.CHECK_MILLIS * 1_000_000);
    }
}

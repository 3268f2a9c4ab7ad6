package kr.c4i.gateway.dds.link;

import java.util.Objects;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.SampleCodec;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.SampleEncoder;

/**
 * The wire types of the {@code dds} WAN link, as IDL:
 *
 * <pre>
 * module gateway {
 *   &#64;final struct WanFrame { string sender; string receiver; unsigned long long incarnation;
 *                            unsigned long long counter; sequence&lt;octet&gt; frame; };
 *   &#64;final struct WanAck { string sender; string receiver; unsigned long long incarnation;
 *                          unsigned long long counter; };
 * };
 * </pre>
 */
final class WanTypes {

    static final String FRAME_TOPIC = "gateway/wan/frames";
    static final String ACK_TOPIC = "gateway/wan/acks";

    /** {@code gateway::WanFrame}. */
    static final DataType<FrameSample> FRAME = DataType.<FrameSample>builder("gateway::WanFrame")
            .string("sender")
            .string("receiver")
            .uint64("incarnation")
            .uint64("counter")
            .octets("frame")
            .build(new SampleCodec<>() {

                @Override
                public void encode(FrameSample sample, SampleEncoder out) {
                    out.string(sample.sender());
                    out.string(sample.receiver());
                    out.uint64(sample.incarnation());
                    out.uint64(sample.counter());
                    out.octets(sample.frame());
                }

                @Override
                public FrameSample decode(SampleDecoder in) {
                    return new FrameSample(in.string(), in.string(), in.uint64(), in.uint64(), in.octets());
                }
            });

    /** {@code gateway::WanAck}. */
    static final DataType<AckSample> ACK = DataType.<AckSample>builder("gateway::WanAck")
            .string("sender")
            .string("receiver")
            .uint64("incarnation")
            .uint64("counter")
            .build(new SampleCodec<>() {

                @Override
                public void encode(AckSample sample, SampleEncoder out) {
                    out.string(sample.sender());
                    out.string(sample.receiver());
                    out.uint64(sample.incarnation());
                    out.uint64(sample.counter());
                }

                @Override
                public AckSample decode(SampleDecoder in) {
                    return new AckSample(in.string(), in.string(), in.uint64(), in.uint64());
                }
            });

    private WanTypes() {
    }

    /**
     * One frame.
     *
     * @param incarnation chosen at random when the sender's link opens, so a receiver tells a restarted sender's
     *        counters from the previous one's
     * @param counter the sender's frames to this receiver, counted from 1 per incarnation
     */
    record FrameSample(String sender, String receiver, long incarnation, long counter, byte[] frame) {

        FrameSample {
            Objects.requireNonNull(frame, "frame");
        }
    }

    /**
     * "Received up to": the receiver of frames ({@code sender} of the ack) has taken every frame of the frame
     * sender's ({@code receiver} of the ack) incarnation up to {@code counter}, or will never get the ones it missed
     * (DDS delivers one writer's samples in order, so a missing one was lost for good, e.g. written before the
     * reader matched).
     */
    record AckSample(String sender, String receiver, long incarnation, long counter) {
    }
}

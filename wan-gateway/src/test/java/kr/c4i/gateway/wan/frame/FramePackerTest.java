package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import kr.c4i.gateway.wan.relay.RelayedEnvelope;

class FramePackerTest {

    private static final FrameCodec CODEC = FrameCodec.standard();

    /** Packs all of them, frame after frame, as the scheduler would; checks each frame on the way. */
    private static List<PackedFrame> packAll(FramePacker packer, List<RelayedEnvelope> envelopes, int target,
            int maxFrame) throws Exception {
        List<PackedFrame> frames = new ArrayList<>();
        List<RelayedEnvelope> received = new ArrayList<>();
        int next = 0;
        long seq = 0;
        while (next < envelopes.size()) {
            PackedFrame packed = packer.pack(77, seq, envelopes.subList(next, envelopes.size()));
            assertThat(packed.envelopes()).isBetween(1, envelopes.size() - next);
            if (packed.envelopes() > 1) {
                assertThat(packed.frame().length).as("frame %d of %d envelopes", seq, packed.envelopes())
                        .isLessThanOrEqualTo(target);
            }
            assertThat(packed.frame().length).isLessThanOrEqualTo(maxFrame);
            DataFrame data = (DataFrame) CODEC.decode(packed.frame());
            assertThat(data.seq()).isEqualTo(seq);
            received.addAll(data.envelopes());
            next += packed.envelopes();
            seq++;
            frames.add(packed);
        }
        assertThat(received).as("every envelope, in order, whole").isEqualTo(envelopes);
        return frames;
    }

    @Property(tries = 60)
    void framesOfSeveralEnvelopesNeverExceedTheTarget(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
            @ForAll @IntRange(min = 200, max = 1400) int target, @ForAll @IntRange(min = 20, max = 3000) int maxBody)
            throws Exception {
        List<RelayedEnvelope> envelopes = new TestEnvelopes(seed).list(60, 10, maxBody);
        packAll(new FramePacker(CODEC, target, 64 * 1024), envelopes, target, 64 * 1024);
    }

    @Test
    void packsSeveralSmallMessagesIntoOneFrameAndGuessesWell() throws Exception {
        List<RelayedEnvelope> envelopes = new TestEnvelopes(5).list(2000, 150, 600);
        FramePacker packer = new FramePacker(CODEC, 1200, 64 * 1024);

        List<PackedFrame> frames = packAll(packer, envelopes, 1200, 64 * 1024);

        assertThat((double) envelopes.size() / frames.size()).as("envelopes per frame").isGreaterThan(3);
        double fill = frames.stream().mapToInt(f -> f.frame().length).average().orElseThrow() / 1200;
        assertThat(fill).as("average fill of the target").isGreaterThan(0.8);
        assertThat((double) packer.compressions() / frames.size()).as("compressions per frame").isLessThan(2.5);
    }

    @Test
    void aMessageLargerThanTheTargetGoesAloneUpToTheLargestFrame() throws Exception {
        TestEnvelopes source = new TestEnvelopes(9);
        RelayedEnvelope small = source.next(200);
        RelayedEnvelope large = source.next(12_000);
        FramePacker packer = new FramePacker(CODEC, 1200, 16 * 1024);

        PackedFrame first = packer.pack(1, 0, List.of(small, large, small));
        PackedFrame alone = packer.pack(1, 1, List.of(large, small));

        assertThat(first.envelopes()).isEqualTo(1);
        assertThat(alone.envelopes()).isEqualTo(1);
        assertThat(alone.frame().length).isBetween(1201, 16 * 1024);
        assertThat(((DataFrame) CODEC.decode(alone.frame())).envelopes()).containsExactly(large);
    }

    @Test
    void aMessageLargerThanTheLargestFrameIsRefusedByName() {
        RelayedEnvelope huge = new TestEnvelopes(10).next(200_000);
        FramePacker packer = new FramePacker(CODEC, 1200, 8 * 1024);

        assertThatThrownBy(() -> packer.pack(1, 0, List.of(huge)))
                .isInstanceOfSatisfying(OversizeEnvelopeException.class,
                        ex -> assertThat(ex.messageId()).isEqualTo(huge.messageId()))
                .hasMessageContaining(huge.messageId()).hasMessageContaining("8192");
    }
}

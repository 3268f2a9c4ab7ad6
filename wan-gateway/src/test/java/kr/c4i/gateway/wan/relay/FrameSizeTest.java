package kr.c4i.gateway.wan.relay;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.wan.frame.FrameCodec;

import static org.assertj.core.api.Assertions.assertThat;

class FrameSizeTest {

    private static final int DATAGRAM = 1_200;
    private static final int JMS_LARGEST = 64 * 1024;

    @Test
    void aNarrowLinkFillsFramesToTheTarget() {
        assertThat(RelayEngine.frameBytes(budget(128_000), JMS_LARGEST)).isEqualTo(DATAGRAM);
        assertThat(RelayEngine.frameBytes(budget(256_000), JMS_LARGEST)).isEqualTo(DATAGRAM);
    }

    @Test
    void aFasterLinkFillsFramesWithTenMillisecondsOfItsBudget() {
        assertThat(RelayEngine.frameBytes(budget(2_000_000), JMS_LARGEST)).isEqualTo(2_500);
        assertThat(RelayEngine.frameBytes(budget(10_000_000), JMS_LARGEST)).isEqualTo(12_500);
    }

    @Test
    void noFrameIsLargerThanTheLinkTakes() {
        assertThat(RelayEngine.frameBytes(budget(1_000_000_000), JMS_LARGEST)).isEqualTo(JMS_LARGEST);
        assertThat(RelayEngine.frameBytes(budget(1_000_000_000), 1_400)).isEqualTo(1_400);
    }

    @Test
    void aTargetLargerThanTheLinkTakesIsNotQuietlyShrunk() {
        // Kept, so that FramePacker refuses the setting at start instead of the gateway ignoring it.
        assertThat(RelayEngine.frameBytes(budget(128_000), 1_000)).isEqualTo(DATAGRAM);
        assertThat(RelayEngine.frameBytes(budget(1_000_000_000), 1_000)).isEqualTo(DATAGRAM);
    }

    @Test
    void framesOfAFastLinkAreCompressedWithTheLeastCpuAndANarrowerLinksWithTheFewestBytes() {
        FrameCodec codec = FrameCodec.standard();
        int fast = RelayEngine.frameBytes(budget(1_000_000_000), JMS_LARGEST);
        int tenMegabits = RelayEngine.frameBytes(budget(10_000_000), JMS_LARGEST);
        assertThat(RelayEngine.codecFor(codec, fast).sending().name()).isEqualTo("deflate-6+kmtf.dict at level 1");
        assertThat(RelayEngine.codecFor(codec, tenMegabits)).isSameAs(codec);
        assertThat(RelayEngine.codecFor(codec, DATAGRAM)).isSameAs(codec);
    }

    private static RelayEngine.Settings budget(long bitsPerSecond) {
        return new RelayEngine.Settings(DATAGRAM, Duration.ofSeconds(15), bitsPerSecond, 1_400, Duration.ofSeconds(1),
                0.05, 1_500, 256 * 1024);
    }
}

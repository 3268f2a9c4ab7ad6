package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.node.KmtfBodies;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.frame.KmtfDictionary;

class LinkCompressionTest {

    private static final long BUDGET_256K = 244_840;

    @Test
    void todaysFillerShrinksToAFewPerCentTheMixToAThirdAndUncompressedKeepsEveryByte() {
        List<byte[]> filler = WanVariant.FILLER.bodies("LOGSITREP", 200, 1000, new SplittableRandom(42));
        List<byte[]> mix = WanVariant.MIX.bodies("LOGSITREP", 200, 1000, new SplittableRandom(42));
        // the 200-byte message in 25-40 WAN bytes, and the mix far from that
        assertThat(LinkCompression.ratio(WanVariant.FILLER, WanLinkKind.NORM, BUDGET_256K, filler)).isLessThan(0.05);
        assertThat(LinkCompression.ratio(WanVariant.MIX, WanLinkKind.NORM, BUDGET_256K, mix)).isBetween(0.3, 0.4);
        assertThat(LinkCompression.ratio(WanVariant.UNCOMPRESSED, WanLinkKind.NORM, BUDGET_256K, mix)).isEqualTo(1.0);
    }

    @Test
    void framesAreTheGatewaysTargetOrTenMillisecondsOfTheBudgetUpToTheLinksLargest() {
        assertThat(LinkCompression.frameBytes(WanLinkKind.JMS, BUDGET_256K)).isEqualTo(1200);
        // 2 Mbit/s less the header allowance: 10 ms of it
        assertThat(LinkCompression.frameBytes(WanLinkKind.DDS, 1_912_814)).isEqualTo(2391);
        // a NORM segment is the norm link's largest frame
        assertThat(LinkCompression.frameBytes(WanLinkKind.NORM, 2_000_000)).isEqualTo(1400);
        assertThat(LinkCompression.frameBytes(WanLinkKind.JMS, 1_000_000_000)).isEqualTo(64 * 1024);
    }

    @Test
    void largerFramesHoldMoreToReferBackToSoTheyCompressBetter() {
        List<byte[]> mix = KmtfBodies.mix("LOGSITREP", 200, 600, new SplittableRandom(42));
        assertThat(LinkCompression.ratio(KmtfDictionary.DEFLATE, mix, 2391))
                .isLessThan(LinkCompression.ratio(KmtfDictionary.DEFLATE, mix, 1200));
    }

    @Test
    void aBodyThatAloneCompressesToMoreThanAFrameGoesAlone() {
        SplittableRandom random = new SplittableRandom(1);
        List<byte[]> noise = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] body = new byte[2000];
            random.nextBytes(body);
            noise.add(body);
        }
        // random bytes do not shrink: Deflate's stored blocks add a few bytes to each
        assertThat(LinkCompression.ratio(KmtfDictionary.DEFLATE, noise, 1200)).isBetween(1.0, 1.01);
        assertThat(LinkCompression.ratio(FrameCompression.NONE, noise, 1200)).isEqualTo(1.0);
        assertThatIllegalArgumentException().isThrownBy(() -> LinkCompression.ratio(FrameCompression.NONE, List.of(),
                1200));
    }
}

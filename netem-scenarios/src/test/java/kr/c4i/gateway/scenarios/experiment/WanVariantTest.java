package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;

class WanVariantTest {

    @Test
    void allIsTheThreeVariantsAndAnythingElseIsNamedInTheError() {
        assertThat(WanVariant.parse("all")).containsExactly(WanVariant.FILLER, WanVariant.MIX,
                WanVariant.UNCOMPRESSED);
        assertThat(WanVariant.parse(" Mix ")).containsExactly(WanVariant.MIX);
        assertThatIllegalArgumentException().isThrownBy(() -> WanVariant.parse("zstd"))
                .withMessage("'zstd' is not a wan variant; use filler, mix, uncompressed or all");
    }

    @Test
    void onlyUncompressedTurnsTheLinksCompressionOff() {
        assertThat(WanVariant.FILLER.compressed()).isTrue();
        assertThat(WanVariant.MIX.compressed()).isTrue();
        assertThat(WanVariant.UNCOMPRESSED.compressed()).isFalse();
    }

    @Test
    void todaysBodiesKeepTheirKeysAndTheOtherVariantsAreKeyedApart() {
        LossCell cell = new LossCell(0.1, kr.c4i.gateway.scenarios.net.Rate.MBIT_2);
        assertThat(CellKeys.wan(cell.key(), Duration.ZERO, WanVariant.FILLER)).isEqualTo("10% 2 Mbit/s");
        assertThat(CellKeys.wan(cell.key(), Duration.ofMillis(250), WanVariant.MIX))
                .isEqualTo("10% 2 Mbit/s, 250 ms delay, mix");
        assertThat(WanPlan.quick().outageKey(Duration.ZERO, WanVariant.UNCOMPRESSED))
                .isEqualTo("outage 10 s 2 Mbit/s, uncompressed");
        assertThat(WanPlan.quick().variants()).containsExactly(WanVariant.FILLER);
        assertThatIllegalArgumentException().isThrownBy(() -> WanPlan.quick().withVariants(List.of()));
    }

    @Test
    void everyCellRunsOncePerVariantTheCompressedOnesFirstSoTheGatewaysRestartOnce() {
        WanPlan wan = WanPlan.quick().withVariants(WanVariant.parse("all"));
        assertThat(WanStep.ordered(wan)).extracting(s -> s.key(wan)).containsExactly("10% 2 Mbit/s",
                "10% 2 Mbit/s, mix", "outage 10 s 2 Mbit/s", "outage 10 s 2 Mbit/s, mix",
                "10% 2 Mbit/s, uncompressed", "outage 10 s 2 Mbit/s, uncompressed");
        assertThat(wan.cellCount()).isEqualTo(6);
        RunPlan plan = RunPlan.quick(List.of(ExperimentKind.WAN), List.of(TransportKind.JMS)).withWan(wan);
        // per link (jms, norm): its deployment and the six cells
        assertThat(plan.steps()).isEqualTo(2 * (1 + 6));
    }
}

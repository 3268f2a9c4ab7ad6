package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LinkShapeTest {

    @Test
    void rateReadsTheUsualSpellingsAndPrintsBothForTcAndForPeople() {
        assertThat(Rate.parse("128kbit")).isEqualTo(Rate.KBIT_128);
        assertThat(Rate.parse("256k")).isEqualTo(Rate.KBIT_256);
        assertThat(Rate.parse("2mbit")).isEqualTo(Rate.MBIT_2);
        assertThat(Rate.parse("2M")).isEqualTo(Rate.MBIT_2);
        assertThat(Rate.parse("1gbit")).isEqualTo(Rate.GBIT_1);
        assertThat(Rate.parse("64000")).isEqualTo(new Rate(64_000));
        assertThat(Rate.KBIT_128.tc()).isEqualTo("128000bit");
        assertThat(Rate.KBIT_128.label()).isEqualTo("128 kbit/s");
        assertThat(Rate.MBIT_2.label()).isEqualTo("2 Mbit/s");
        assertThat(Rate.GBIT_1.label()).isEqualTo("1 Gbit/s");
        assertThatIllegalArgumentException().isThrownBy(() -> Rate.parse("fast"));
        assertThatIllegalArgumentException().isThrownBy(() -> Rate.parse("1k"));
    }

    @Test
    void burstIsFourMillisecondsOfTheRateButAtLeastOneFrame() {
        assertThat(new LinkShape(Rate.KBIT_128, 0, 50).burstBytes()).isEqualTo(1600);
        assertThat(new LinkShape(Rate.GBIT_1, 0, 50).burstBytes()).isEqualTo(500_000);
    }

    @Test
    void queueIsFullFramesAndItsDrainTimeFollowsTheRate() {
        LinkShape shape = new LinkShape(Rate.KBIT_128, 0, 50);
        assertThat(shape.limitBytes()).isEqualTo(75_700);
        assertThat(shape.queueMillis()).isCloseTo(4731.25, within(0.01));
    }

    @Test
    void lossIsKeptInThousandthsForNftablesAndInPercentForNetem() {
        assertThat(new LinkShape(Rate.MBIT_2, 0.1, 50).lossPerMille()).isEqualTo(100);
        assertThat(new LinkShape(Rate.MBIT_2, 0.3, 50).lossPercent()).isEqualTo("30%");
        assertThat(new LinkShape(Rate.MBIT_2, 0.025, 50).lossPercent()).isEqualTo("2.5%");
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkShape(Rate.MBIT_2, 1.0, 50));
        assertThatIllegalArgumentException().isThrownBy(() -> new LinkShape(Rate.MBIT_2, 0.1, 1));
    }
}

package kr.c4i.gateway.scenarios.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void meanAndSampleStandardDeviationLikeTheStudysTables() {
        Stats s = Stats.of(2, 4, 4, 4, 5, 5, 7, 9);
        assertThat(s.n()).isEqualTo(8);
        assertThat(s.mean()).isEqualTo(5.0);
        // population sd is 2; the sample sd divides by n - 1
        assertThat(s.sd()).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
        assertThat(s.min()).isEqualTo(2);
        assertThat(s.max()).isEqualTo(9);
    }

    @Test
    void oneValueHasAMeanButNoStandardDeviation() {
        Stats s = Stats.of(42);
        assertThat(s.mean()).isEqualTo(42);
        assertThat(s.sd()).isNaN();
    }

    @Test
    void noValuesHaveNothing() {
        assertThat(Stats.of().present()).isFalse();
        assertThat(Stats.of().mean()).isNaN();
    }

    @Test
    void numbersPrintLikeTheStudysTables() {
        assertThat(Fmt.whole(52319)).isEqualTo("52,319");
        assertThat(Fmt.number(19.4082)).isEqualTo("19.4");
        assertThat(Fmt.number(961.4)).isEqualTo("961");
        assertThat(Fmt.ratio(2665.0 / 52319)).isEqualTo("0.051");
        assertThat(Fmt.ratio(13.36)).isEqualTo("13.4");
        assertThat(Fmt.ratio(Double.NaN)).isEqualTo("–");
        assertThat(Fmt.meanSd(Stats.of(10, 20))).isEqualTo("15.0 (7.1)");
        assertThat(Fmt.meanSd(Stats.of(100))).isEqualTo("100");
    }
}

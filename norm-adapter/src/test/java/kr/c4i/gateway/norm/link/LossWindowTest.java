package kr.c4i.gateway.norm.link;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LossWindowTest {

    private final LossWindow window = new LossWindow();

    @Test
    void countsTheObjectsWhoseInfoCameLate() {
        assertThat(this.window.samples()).isZero();
        for (int i = 0; i < 10; i++) {
            this.window.record(i % 5 == 0);
        }
        assertThat(this.window.samples()).isEqualTo(10);
        assertThat(this.window.lost()).isEqualTo(2);
    }

    @Test
    void slidesOverTheLastSamplesOnly() {
        for (int i = 0; i < LossWindow.SIZE; i++) {
            this.window.record(true);
        }
        assertThat(this.window.lost()).isEqualTo(LossWindow.SIZE);
        for (int i = 0; i < LossWindow.SIZE / 2; i++) {
            this.window.record(false);
        }
        assertThat(this.window.samples()).isEqualTo(LossWindow.SIZE);
        assertThat(this.window.lost()).isEqualTo(LossWindow.SIZE / 2);
        for (int i = 0; i < LossWindow.SIZE / 2; i++) {
            this.window.record(false);
        }
        assertThat(this.window.lost()).as("every loss has left the window").isZero();
    }

    @Test
    void theRecentSamplesAreTheLastOnesOnly() {
        for (int i = 0; i < LossWindow.SIZE; i++) {
            this.window.record(false);
        }
        for (int i = 0; i < LossWindow.RECENT; i++) {
            this.window.record(i % 2 == 0);
        }
        assertThat(this.window.recentSamples()).isEqualTo(LossWindow.RECENT);
        assertThat(this.window.recentLost()).isEqualTo(LossWindow.RECENT / 2);
        assertThat(this.window.lost()).isEqualTo(LossWindow.RECENT / 2);
        this.window.record(false);
        assertThat(this.window.recentLost()).as("the oldest recent loss has left").isEqualTo(LossWindow.RECENT / 2 - 1);
        LossWindow young = new LossWindow();
        young.record(true);
        assertThat(young.recentSamples()).isEqualTo(1);
        assertThat(young.recentLost()).isEqualTo(1);
    }
}

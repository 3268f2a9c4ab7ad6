package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.net.Rate;

class WanStepTest {

    @Test
    void gatewaysThatStartForAStepAreWarmedUpWithAsManyMessagesAsItsCellWrites() {
        WanPlan wan = WanPlan.full();
        LossCell fast = new LossCell(0.1, Rate.MBIT_2);
        WanStep step = new WanStep(fast, fast.rate(), Duration.ZERO, WanVariant.FILLER);

        assertThat(wan.messagesIn(fast)).isGreaterThan(10_000);
        assertThat(step.warmUpMessages(wan, 20)).isEqualTo(wan.messagesIn(fast));
        assertThat(step.warmUpMessages(wan, 50_000)).as("never fewer than asked").isEqualTo(50_000);
        assertThat(new WanStep(null, Rate.KBIT_256, Duration.ZERO, WanVariant.FILLER).warmUpMessages(wan, 20))
                .as("the outage writes its own count").isEqualTo(20);
    }
}

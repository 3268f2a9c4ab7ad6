package kr.c4i.gateway.scenarios.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.report.Targets.Check;
import kr.c4i.gateway.scenarios.report.Targets.Status;

class TargetsTest {

    @Test
    void aRunInWhichDdsDoesEverythingMeetsEveryTarget() {
        List<Check> checks = Targets.evaluate(SampleRuns.ddsWins());
        assertThat(checks).hasSize(8).allSatisfy(c -> assertThat(c.status()).as(c.toString()).isEqualTo(Status.MET));
        assertThat(Targets.anyMissed(checks)).isFalse();
    }

    @Test
    void eachMissIsNamedWithItsNumbers() {
        Map<String, Check> checks = byId(Targets.evaluate(SampleRuns.ddsLoses()));
        assertThat(checks.get("recovery-dds-fast").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("recovery-dds-fast").measured()).contains("4,000 ms");
        assertThat(checks.get("recovery-dds-vs-study").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("recovery-jms-vs-study").status()).isEqualTo(Status.MET);
        assertThat(checks.get("fanout-dds-multicast").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("fanout-dds-multicast").measured()).contains("900,000 / 280,000");
        assertThat(checks.get("fanout-dds-vs-jms").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("fanout-dds-vs-jms").measured()).contains("DDS 280,000, JMS 250,000 bytes");
        assertThat(checks.get("loss-dds-complete").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("loss-dds-capacity").status()).isEqualTo(Status.MISSED);
        assertThat(checks.get("loss-dds-beats-jms").status()).isEqualTo(Status.MET);
        assertThat(Targets.anyMissed(List.copyOf(checks.values()))).isTrue();
    }

    @Test
    void aRunWithoutDdsMeasuresNoDdsTarget() {
        RunResult full = SampleRuns.ddsWins();
        RunResult jmsOnly = new RunResult(full.command(), full.startedAt(), full.finishedAt(), full.plan(),
                full.setup(), full.repetitions().stream().filter(r -> r.transport().equals("jms")).toList(),
                List.of());
        Map<String, Check> checks = byId(Targets.evaluate(jmsOnly));
        assertThat(checks.get("recovery-jms-vs-study").status()).isEqualTo(Status.MET);
        assertThat(checks.values()).filteredOn(c -> !c.id().equals("recovery-jms-vs-study"))
                .allSatisfy(c -> assertThat(c.status()).isEqualTo(Status.NOT_MEASURED));
        assertThat(Targets.anyMissed(List.copyOf(checks.values()))).isFalse();
    }

    private static Map<String, Check> byId(List<Check> checks) {
        return checks.stream().collect(Collectors.toMap(Check::id, Function.identity()));
    }
}

package kr.c4i.gateway.scenarios.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.RunSetup;

class PooledRunsTest {

    @Test
    void repetitionsOfRunsOfOnePlanArePooledAndNumberedOnPerCell() {
        RunResult first = SampleRuns.ddsWins();
        RunResult second = SampleRuns.ddsLoses();

        RunResult pooled = PooledRuns.pool(List.of(first, second), "bin/scenarios pool a b -o c");

        assertThat(pooled.repetitions()).hasSize(first.repetitions().size() + second.repetitions().size());
        assertThat(pooled.plan().repetitions()).isEqualTo(first.plan().repetitions() + second.plan().repetitions());
        List<RepetitionResult> cell = pooled.cell(ExperimentKind.RECOVERY, "dds", "1:1");
        assertThat(cell).extracting(RepetitionResult::repetition).containsExactly(1, 2, 3, 4);
        assertThat(cell.get(0).metrics()).isEqualTo(first.cell(ExperimentKind.RECOVERY, "dds", "1:1").get(0).metrics());
        assertThat(cell.get(2).metrics()).isEqualTo(second.cell(ExperimentKind.RECOVERY, "dds", "1:1").get(0).metrics());
        assertThat(pooled.command()).startsWith("bin/scenarios pool a b -o c (pooled from 2 runs: '")
                .contains(first.command());
    }

    @Test
    void runsWhoseNodeJarWasCopiedToDirectoriesOfTheirOwnArePooledAndAnotherJarIsRefused() {
        RunResult first = withNodeJar(SampleRuns.ddsWins(), "/tmp/scenarios.AbC123/gateway-tools-exec.jar");
        RunResult second = withNodeJar(SampleRuns.ddsLoses(), "/tmp/scenarios.XyZ789/gateway-tools-exec.jar");
        RunResult other = withNodeJar(SampleRuns.ddsLoses(), "/tmp/scenarios.XyZ789/gateway-tools-old-exec.jar");

        assertThat(PooledRuns.pool(List.of(first, second), "pool").repetitions())
                .hasSize(first.repetitions().size() + second.repetitions().size());
        assertThatThrownBy(() -> PooledRuns.pool(List.of(first, other), "pool"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another setup");
    }

    private static RunResult withNodeJar(RunResult run, String nodeJar) {
        RunSetup s = run.setup();
        RunSetup moved = new RunSetup(s.backend(), s.congestionControl(), s.arpRetryMillis(), s.hosts(), s.subnet(),
                s.queues(), s.kernel(), s.cpus(), s.java(), nodeJar, s.nodeHeap(), s.types(), s.nodeProperties(),
                s.gatewayProperties(), s.secured());
        return new RunResult(run.command(), run.startedAt(), run.finishedAt(), run.plan(), moved, run.repetitions(),
                run.problems());
    }

    @Test
    void runsOfAnotherPlanOrOnlyOneRunAreRefused() {
        RunResult first = SampleRuns.ddsWins();
        RunPlan p = first.plan();
        RunPlan otherSize = new RunPlan(p.experiments(), p.transports(), p.repetitions(), p.quick(),
                p.recoveryMessages(), p.recoverySize(), p.fanOutMessages(), p.fanOutSize(), p.subscribers(),
                p.lossMessages() + 1, p.lossSize(), p.lossCells(), p.queuePackets(), p.recoveryOrder(),
                p.nodeStartTimeout(), p.deliveryTimeout(), p.cellTimeout(), p.warmupMessages());
        RunResult other = new RunResult(first.command(), first.startedAt(), first.finishedAt(), otherSize,
                first.setup(), first.repetitions(), first.problems());

        assertThatThrownBy(() -> PooledRuns.pool(List.of(first, other), "pool"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another plan");
        assertThatThrownBy(() -> PooledRuns.pool(List.of(first), "pool"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least two runs");
    }
}

package kr.c4i.gateway.tools;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JvmCpuTest {

    @Test
    void theJitCompilerIsFoundAndItsTimeGrowsWithCodeToCompileWithinTheJvmsOwn() {
        long jit = JvmCpu.jitNanos();
        long process = JvmCpu.processNanos();
        // Enough new hot code to keep a compiler thread busy for more than a clock tick (10 ms).
        long groups = 0;
        for (int i = 0; i < 200; i++) {
            groups += IntStream.range(0, 20_000).map((n) -> n * 31 ^ (n >>> 3)).boxed()
                    .collect(Collectors.groupingBy((n) -> n % 97, Collectors.counting())).size();
        }
        assertThat(groups).isEqualTo(200 * 97);
        long jitSpent = JvmCpu.jitNanos() - jit;
        assertThat(jitSpent).as("the compiler threads' time").isPositive();
        assertThat(JvmCpu.processNanos() - process).as("the JVM's time").isGreaterThanOrEqualTo(jitSpent);
    }

    @Test
    void theMachinesBusyTimeLeavesOutIdleIowaitAndStealAndGrowsWithWork() {
        assertThat(MachineCpu.busyTicks("cpu  100 5 20 1000 300 7 8 9 0 0\ncpu0 50 2 10 500 150 3 4 4 0 0\n"))
                .isEqualTo(100 + 5 + 20 + 7 + 8);
        long before = MachineCpu.busyNanos();
        long spun = 0;
        long until = JvmCpu.processNanos() + 50_000_000L;
        while (JvmCpu.processNanos() < until) {
            spun++;
        }
        assertThat(spun).isPositive();
        // 50 ms of this JVM's CPU is five ticks of the machine's at least.
        assertThat(MachineCpu.busyNanos() - before).isGreaterThanOrEqualTo(40_000_000L);
    }
}

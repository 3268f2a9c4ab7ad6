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
}

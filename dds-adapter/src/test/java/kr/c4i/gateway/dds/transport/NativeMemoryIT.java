package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.dds.TestNetwork;

/**
 * 200,000 messages of 2 KiB through send, take (loans), envelopes and receipts must not grow native memory: a
 * leaked per-call arena or an unreturned loan adds about 400 MB here (checked by breaking the loan return); leaks
 * of a few bytes per message are below what the resident set can show.
 */
@Timeout(300)
class NativeMemoryIT {

    static final int MESSAGES = 200_000;
    static final long ALLOWED_GROWTH_KB = 64 * 1024;

    @Test
    void residentMemoryStaysFlatOverTwoHundredThousandMessages() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xms256m",
                "-Xmx256m", "-XX:+AlwaysPreTouch", "-cp", System.getProperty("java.class.path"),
                LeakProbeMain.class.getName(), Integer.toString(TestNetwork.domainId() + 1),
                Integer.toString(MESSAGES)).redirectError(ProcessBuilder.Redirect.INHERIT);
        // Fewer malloc arenas: less noise in the resident set from memory freed but not yet returned.
        builder.environment().put("MALLOC_ARENA_MAX", "2");
        Process probe = builder.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(probe.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        }
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(probe.exitValue()).as(String.join("\n", lines)).isZero();
        List<Long> rss = lines.stream().filter(l -> l.startsWith("RSS ")).map(l -> Long.parseLong(l.split(" ")[2]))
                .toList();
        System.out.println("Native memory probe: " + lines);
        assertThat(lines).contains("DONE").anyMatch(l -> l.startsWith("RSS " + MESSAGES + " ")
                && l.endsWith("received " + MESSAGES + " receipted " + MESSAGES));
        // From the second checkpoint (after warm-up: JIT, Cyclone's pools) the set must stay flat. The lowest of
        // the last three readings ignores malloc's transient highs; a leak raises all of them.
        long late = rss.subList(rss.size() - 3, rss.size()).stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(late - rss.get(1)).as("RSS growth in kB after 40k messages: " + rss)
                .isLessThan(ALLOWED_GROWTH_KB);
    }
}

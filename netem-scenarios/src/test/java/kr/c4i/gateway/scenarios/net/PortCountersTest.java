package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.net.PortCounters.LossCount;

class PortCountersTest {

    @Test
    void readsEverySwitchPortFromIpJson() throws IOException {
        Map<String, PortCounters> ports = PortCounters.parse(fixture("ip-link-stats.json"));
        assertThat(ports).containsKeys("lo", "br0", "p1", "p2", "p3");
        PortCounters p1 = ports.get("p1");
        assertThat(p1.rxPackets()).isPositive();
        assertThat(p1.rxBytes()).isGreaterThan(p1.rxPackets() * 42);
    }

    @Test
    void differencesAreWhatHappenedInBetween() {
        PortCounters later = new PortCounters(1000, 10, 500, 5);
        assertThat(later.minus(new PortCounters(400, 4, 100, 1))).isEqualTo(new PortCounters(600, 6, 400, 4));
    }

    @Test
    void readsWhatEachLossChainSawAndDropped() throws IOException {
        Map<String, LossCount> counts = PortCounters.parseLossCounters(fixture("nft-loss-counters.json"));
        assertThat(counts.get("p1")).isEqualTo(new LossCount(50, 2));
        assertThat(counts.get("p2")).isEqualTo(new LossCount(6, 1));
        assertThat(counts.get("p3")).isEqualTo(new LossCount(0, 0));
        assertThat(counts.get("p1").ratio()).isEqualTo(0.04);
        assertThat(counts.get("p3").ratio()).isNaN();
    }

    @Test
    void noLossTableMeansNoCounts() {
        assertThat(PortCounters.parseLossCounters("")).isEmpty();
    }

    private static String fixture(String name) throws IOException {
        try (InputStream in = PortCountersTest.class.getResourceAsStream("/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

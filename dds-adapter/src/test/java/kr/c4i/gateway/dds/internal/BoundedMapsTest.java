package kr.c4i.gateway.dds.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;

import org.junit.jupiter.api.Test;

class BoundedMapsTest {

    @Test
    void leastRecentlyUsedForgetsTheEntryNotReadOrWrittenForLongest() {
        Map<String, Integer> map = BoundedMaps.leastRecentlyUsed(3);
        map.put("a", 1);
        map.put("b", 2);
        map.put("c", 3);
        map.getOrDefault("a", 0);
        map.merge("b", 1, Integer::sum);
        map.put("d", 4);
        // Checked on a copy: the assertion's own reads would renew entries.
        assertThat(Map.copyOf(map)).containsOnlyKeys("a", "b", "d").containsEntry("b", 3);
        map.get("a");
        map.put("e", 5);
        assertThat(Map.copyOf(map)).containsOnlyKeys("a", "d", "e");
    }

    @Test
    void oldestFirstForgetsTheEntryPutFirstHoweverOftenItWasReadOrReplaced() {
        Map<String, Integer> map = BoundedMaps.oldestFirst(3);
        map.put("a", 1);
        map.put("b", 2);
        map.put("c", 3);
        map.get("a");
        map.put("a", 10);
        map.put("d", 4);
        assertThat(map).containsOnlyKeys("b", "c", "d");
        map.remove("b");
        map.put("b", 2);
        map.put("e", 5);
        assertThat(map).containsOnlyKeys("d", "b", "e");
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> BoundedMaps.oldestFirst(0))
                .withMessageContaining("maxEntries");
    }
}

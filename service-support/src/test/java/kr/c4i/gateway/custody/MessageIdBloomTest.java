package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class MessageIdBloomTest {

    @Test
    void holdsEveryIdItWasMadeOfAndFewOthers() {
        // The outboxes' default ids (random UUIDs) and ids that differ in one character.
        List<String> uuids = IntStream.range(0, 500).mapToObj(i -> UUID.randomUUID().toString()).toList();
        List<String> alike = IntStream.range(0, 500).mapToObj(i -> "SITREP-2026-" + i).toList();
        for (List<String> ids : List.of(uuids, alike)) {
            byte[] bloom = MessageIdBloom.of(ids);
            assertThat(bloom).hasSize(625);
            assertThat(ids).allMatch(id -> MessageIdBloom.mightContain(bloom, id));
            long maybe = IntStream.range(0, 20_000)
                    .filter(i -> MessageIdBloom.mightContain(bloom, "absent-" + i + "-" + ids.getFirst())).count();
            // 10 bits an id and 4 probes: 1.2% expected.
            assertThat(maybe).as("absent ids a filter of 500 answers maybe for, of 20,000").isLessThan(400);
        }
    }

    @Test
    void setsTheBitsSqlProbesFor() {
        // custody_ids_bloom_has tests bit (first + i * step) % bits for i = 0..3; the writer must set exactly those,
        // for filters of every size and ids of any kind (the stored format).
        for (int n : new int[] {1, 3, 7, 64, 500, 4097}) {
            List<String> ids = IntStream.range(0, n)
                    .mapToObj(i -> i % 3 == 0 ? UUID.randomUUID().toString() : "\uD55C-" + i * 7919).toList();
            byte[] expected = new byte[MessageIdBloom.of(ids).length];
            long bits = 8L * expected.length;
            for (String id : ids) {
                long[] probe = MessageIdBloom.probe(id);
                for (int i = 0; i < MessageIdBloom.PROBES; i++) {
                    long bit = (probe[0] + i * probe[1]) % bits;
                    expected[(int) (bit / 8)] |= (byte) (1 << (bit % 8));
                }
            }
            assertThat(MessageIdBloom.of(ids)).as("filter of %d ids", n).isEqualTo(expected);
        }
    }

    @Test
    void probesStayInsideWhatSqlAddsUpInABigint() {
        for (String id : List.of("", "a", "m1", UUID.randomUUID().toString(), "\uD55C\uAE00-\u0000-id")) {
            long[] probe = MessageIdBloom.probe(id);
            assertThat(probe[0]).isBetween(0L, (long) Integer.MAX_VALUE);
            assertThat(probe[1]).isBetween(1L, (long) Integer.MAX_VALUE).matches(step -> step % 2 == 1);
        }
    }
}

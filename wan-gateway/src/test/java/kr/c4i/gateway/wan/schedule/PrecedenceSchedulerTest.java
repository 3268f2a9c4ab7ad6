package kr.c4i.gateway.wan.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

import static kr.c4i.gateway.kmtf.catalogue.Precedence.FLASH;
import static kr.c4i.gateway.kmtf.catalogue.Precedence.IMMEDIATE;
import static kr.c4i.gateway.kmtf.catalogue.Precedence.PRIORITY;
import static kr.c4i.gateway.kmtf.catalogue.Precedence.ROUTINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PrecedenceSchedulerTest {

    private static final int FRAME = 1400;
    private static final Instant NOW = Instant.parse("2026-01-01T02:00:00Z");

    private final InMemoryBacklog backlog = new InMemoryBacklog();

    @Test
    void flashGoesFirstThenImmediatePriorityRoutine() {
        this.backlog.addMany(ROUTINE, "UNITLOC", 100, 5);
        this.backlog.addMany(PRIORITY, "SITREP", 100, 2);
        this.backlog.add(IMMEDIATE, "FRAGO", 100);
        this.backlog.add(FLASH, "EXORD", 100);

        Batch batch = strict().next(10_000, 10_000);

        assertThat(batch.copies()).extracting(Waiting::precedence).containsExactly(FLASH, IMMEDIATE, PRIORITY,
                PRIORITY, ROUTINE, ROUTINE, ROUTINE, ROUTINE, ROUTINE);
    }

    @Test
    void readsTheTypesWaitingOnlyWhenANewTypeStartedWaiting() {
        for (int t = 0; t < 50; t++) {
            this.backlog.addMany(ROUTINE, "TYPE" + t, 100, 20);
        }
        PrecedenceScheduler scheduler = new PrecedenceScheduler(this.backlog);
        scheduler.next(Long.MAX_VALUE, 100);
        int reads = this.backlog.typesReads();

        Batch batch = scheduler.next(Long.MAX_VALUE, 50 * 100 * 10);

        assertThat(batch.copies()).hasSize(500);
        assertThat(this.backlog.typesReads()).isEqualTo(reads);
        this.backlog.add(FLASH, "LATE", 100);
        assertThat(scheduler.next(Long.MAX_VALUE, 100).copies()).extracting(Waiting::kmtfType).containsExactly("LATE");
        assertThat(this.backlog.typesReads()).isGreaterThan(reads);
    }

    @Test
    void flashArrivingBehindADeepRoutineBacklogGoesInTheNextFrame() {
        PrecedenceScheduler scheduler = new PrecedenceScheduler(this.backlog);
        this.backlog.addMany(ROUTINE, "UNITLOC", 200, 10_000);
        scheduler.next(FRAME, FRAME);
        Waiting flash = this.backlog.add(FLASH, "EXORD", 300);

        assertThat(scheduler.next(FRAME, FRAME).copies()).first().isEqualTo(flash);
    }

    @Test
    void floorGivesEachLowerPrecedenceItsShareWhileFlashFloods() {
        PrecedenceScheduler scheduler = scheduler(0.05);
        this.backlog.addMany(IMMEDIATE, "FRAGO", 700, 5_000);
        this.backlog.addMany(PRIORITY, "SITREP", 1200, 5_000);
        this.backlog.addMany(ROUTINE, "UNITLOC", 300, 20_000);
        Map<Precedence, Long> sent = new EnumMap<>(Precedence.class);
        long total = 0;
        for (int frame = 0; frame < 2_000; frame++) {
            while (this.backlog.waitingCount(FLASH) < 10) {
                this.backlog.add(FLASH, "EXORD", 500);
            }
            for (Waiting copy : scheduler.next(FRAME, FRAME).copies()) {
                sent.merge(copy.precedence(), (long) copy.bytes(), Long::sum);
                total += copy.bytes();
            }
        }

        for (Precedence lower : List.of(IMMEDIATE, PRIORITY, ROUTINE)) {
            assertThat(sent.get(lower)).as(lower.label()).isBetween((long) (0.05 * total) - 1200,
                    (long) (0.05 * total) + 1200);
        }
        assertThat(sent.get(FLASH)).isGreaterThanOrEqualTo((long) (0.85 * total) - 3600);
    }

    @Test
    void withoutAFloorFlashStarvesRoutine() {
        PrecedenceScheduler scheduler = strict();
        this.backlog.addMany(ROUTINE, "UNITLOC", 300, 100);
        for (int frame = 0; frame < 500; frame++) {
            this.backlog.addMany(FLASH, "EXORD", 500, 3);
            assertThat(scheduler.next(FRAME, FRAME).copies()).extracting(Waiting::precedence).containsOnly(FLASH);
        }
    }

    @Test
    void aPrecedenceAloneOnTheLinkHasItAllAndBanksNoFloorForLater() {
        PrecedenceScheduler scheduler = scheduler(0.25);
        this.backlog.addMany(ROUTINE, "UNITLOC", 100, 1_000);
        scheduler.next(50_000, 50_000);
        this.backlog.addMany(FLASH, "EXORD", 100, 10);

        // ROUTINE earned nothing while it had the link to itself: it earns its quarter from now on, not before.
        assertThat(scheduler.next(500, 500).copies()).extracting(Waiting::precedence).containsExactly(FLASH, FLASH,
                FLASH, FLASH, ROUTINE);
    }

    @Test
    void typesShareAPrecedenceByBytesWhateverTheirSizeOrBacklog() {
        PrecedenceScheduler scheduler = new PrecedenceScheduler(this.backlog);
        this.backlog.addMany(PRIORITY, "BLUEPOS", 150, 20_000);
        this.backlog.addMany(PRIORITY, "SITREP", 2_000, 2_000);
        this.backlog.addMany(PRIORITY, "CMDRSUM", 700, 5_000);
        Map<String, Long> sent = new HashMap<>();
        for (int frame = 0; frame < 1_500; frame++) {
            scheduler.next(FRAME, FRAME).copies().forEach((c) -> sent.merge(c.kmtfType(), (long) c.bytes(), Long::sum));
        }

        long total = sent.values().stream().mapToLong(Long::longValue).sum();
        assertThat(sent).hasSize(3);
        sent.forEach((type, bytes) -> assertThat((double) bytes / total).as(type).isCloseTo(1.0 / 3,
                org.assertj.core.data.Offset.offset(0.02)));
    }

    @Test
    void aTypeWithOneMessageIsNotStarvedByAFloodOfAnother() {
        PrecedenceScheduler scheduler = new PrecedenceScheduler(this.backlog);
        this.backlog.addMany(PRIORITY, "BLUEPOS", 150, 50_000);
        Waiting lone = this.backlog.add(PRIORITY, "SITREP", 900);

        scheduler.next(FRAME, FRAME);
        scheduler.next(FRAME, FRAME);

        assertThat(this.backlog.taken()).contains(lone);
    }

    @Test
    void aBatchStaysWithinTheCreditAndTheFrameAndNeverTakesACopyTwice() {
        Random random = new Random(42);
        PrecedenceScheduler scheduler = scheduler(0.1);
        Precedence[] levels = Precedence.values();
        String[] types = {"EXORD", "FRAGO", "SITREP", "BLUEPOS", "UNITLOC"};
        Set<Long> seen = new HashSet<>();
        for (int round = 0; round < 5_000; round++) {
            for (int i = random.nextInt(4); i > 0; i--) {
                this.backlog.add(levels[random.nextInt(4)], types[random.nextInt(types.length)],
                        1 + random.nextInt(3_000));
            }
            long credit = random.nextInt(4_000) - 500;
            int frame = 200 + random.nextInt(2_000);
            long waitingBefore = Arrays.stream(levels).mapToLong(this.backlog::waitingCount).sum();

            Batch batch = scheduler.next(credit, frame);

            if (credit <= 0) {
                assertThat(batch.copies()).isEmpty();
            }
            else if (waitingBefore > 0) {
                assertThat(batch.copies()).as("at least one copy goes when there is credit").isNotEmpty();
            }
            if (batch.copies().size() > 1) {
                assertThat(batch.bytes()).isLessThanOrEqualTo(Math.min(credit, frame));
            }
            batch.copies().forEach((c) -> assertThat(seen.add(c.id())).as("taken once: " + c).isTrue());
        }
        assertThat(this.backlog.taken()).hasSize(seen.size());
    }

    @Test
    void aCopyLargerThanTheCreditGoesAloneRatherThanWaitForEver() {
        Waiting big = this.backlog.add(ROUTINE, "OPLAN", 60_000);
        this.backlog.add(ROUTINE, "OPLAN", 100);

        assertThat(strict().next(1, FRAME).copies()).containsExactly(big);
        assertThat(strict().next(0, FRAME).copies()).isEmpty();
    }

    @Test
    void aLowerCopyNeverOvertakesAHigherOneThatDoesNotFitTheFrame() {
        PrecedenceScheduler scheduler = strict();
        Waiting first = this.backlog.add(IMMEDIATE, "FRAGO", 800);
        Waiting second = this.backlog.add(IMMEDIATE, "FRAGO", 800);
        this.backlog.addMany(ROUTINE, "UNITLOC", 100, 10);

        assertThat(scheduler.next(FRAME, FRAME).copies()).containsExactly(first);
        assertThat(scheduler.next(FRAME, FRAME).copies()).first().isEqualTo(second);
    }

    @Test
    void expiredCopiesAreTakenAndReturnedApartWithoutUsingCredit() {
        ExpiryRule oldRoutine = (copy, now) -> copy.precedence() == ROUTINE
                && copy.createdAt().isBefore(now.minus(Duration.ofHours(1)));
        PrecedenceScheduler scheduler = new PrecedenceScheduler(this.backlog, 0, 1500, oldRoutine,
                InstantSource.fixed(NOW));
        Waiting stale = this.backlog.add(ROUTINE, "UNITLOC", 1_000, NOW.minus(Duration.ofHours(2)));
        Waiting fresh = this.backlog.add(ROUTINE, "UNITLOC", 1_000, NOW.minusSeconds(10));

        Batch batch = scheduler.next(FRAME, FRAME);

        assertThat(batch.expired()).containsExactly(stale);
        assertThat(batch.copies()).containsExactly(fresh);
        assertThat(this.backlog.taken()).containsExactly(stale, fresh);
    }

    @Test
    void copiesPutBackGoOutAgainAheadOfLaterOnes() {
        PrecedenceScheduler scheduler = strict();
        this.backlog.addMany(PRIORITY, "SITREP", 500, 6);
        List<Waiting> lost = scheduler.next(FRAME, FRAME).copies();
        this.backlog.putBack(lost);

        assertThat(scheduler.next(FRAME, FRAME).copies()).containsExactlyElementsOf(lost);
    }

    @Test
    void refusesAFloorThatWouldStarveFlash() {
        assertThatIllegalArgumentException().isThrownBy(() -> scheduler(0.3)).withMessageContaining("floor");
        assertThatIllegalArgumentException().isThrownBy(() -> scheduler(-0.1)).withMessageContaining("floor");
    }

    private PrecedenceScheduler strict() {
        return scheduler(0);
    }

    private PrecedenceScheduler scheduler(double floor) {
        return new PrecedenceScheduler(this.backlog, floor, PrecedenceScheduler.DEFAULT_QUANTUM_BYTES,
                ExpiryRule.NEVER, InstantSource.fixed(NOW));
    }
}

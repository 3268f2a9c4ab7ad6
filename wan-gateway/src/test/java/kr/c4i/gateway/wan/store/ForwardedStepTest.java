package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ForwardedStepTest {

    @Test
    void shortIdsGoSixtyFourToAStep() {
        List<String> ids = ids(130, 10);

        List<List<String>> parts = ForwardedStep.parts(ids, 1 << 20);

        assertThat(parts).extracting(List::size).containsExactly(64, 64, 2);
        assertThat(parts.stream().flatMap(List::stream).toList()).isEqualTo(ids);
    }

    @Test
    void longIdsGoAsManyAsTheBoundHolds() {
        // Each id is written as 2 + 100 bytes: eight make 816 of 845, a ninth would make 918.
        List<String> ids = ids(20, 100);

        List<List<String>> parts = ForwardedStep.parts(ids, ForwardedStep.maxIdBytes(1357));

        assertThat(ForwardedStep.maxIdBytes(1357)).isEqualTo(845);
        assertThat(parts).extracting(List::size).containsExactly(8, 8, 4);
        assertThat(parts.stream().flatMap(List::stream).toList()).isEqualTo(ids);
    }

    @Test
    void anIdLongerThanTheBoundGoesAloneAndTheOthersAroundIt() {
        String longest = "x".repeat(255);
        List<String> ids = List.of("a-1", longest, "a-2");

        assertThat(ForwardedStep.parts(ids, 100)).containsExactly(List.of("a-1"), List.of(longest), List.of("a-2"));
    }

    @Test
    void idsAreCountedAsTheStepWritesThem() {
        // Hangul takes three bytes a character in modified UTF-8: 2 + 30 each, 96 for the three; 95 holds two.
        List<String> ids = List.of("작전".repeat(5), "보고".repeat(5), "명령".repeat(5));

        assertThat(ForwardedStep.parts(ids, 100)).extracting(List::size).containsExactly(3);
        assertThat(ForwardedStep.parts(ids, 95)).extracting(List::size).containsExactly(2, 1);
    }

    @Test
    void aSmallFrameStillLeavesRoomForIdsAndNoIdsMakeNoParts() {
        assertThat(ForwardedStep.maxIdBytes(600)).isEqualTo(ForwardedStep.MIN_ID_BYTES);
        assertThat(ForwardedStep.parts(List.of(), 845)).isEmpty();
    }

    private static List<String> ids(int count, int length) {
        return IntStream.range(0, count).mapToObj(i -> String.format("%0" + length + "d", i)).toList();
    }
}

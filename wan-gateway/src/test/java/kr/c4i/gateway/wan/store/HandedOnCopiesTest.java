package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class HandedOnCopiesTest {

    @Test
    void theOldestAreForgottenFirstAndAnUnknownStoringIsNotKept() {
        HandedOnCopies copies = new HandedOnCopies(3);
        copies.handedOn(List.of("m1", "m2"), new long[] {11, 12});
        copies.handedOn(List.of("m0", "m3", "m4"), new long[] {0, 13, 14});

        assertThat(copies.storedIn(List.of("m1", "m0", "m2", "m4", "never")))
                .as("m1 the oldest, past the capacity; m0 stored before a restart: not known")
                .containsExactly(0, 0, 12, 14, 0);
    }

    @Test
    void aMessageHandedOnAgainNamesItsLatestStoring() {
        HandedOnCopies copies = new HandedOnCopies(3);
        copies.handedOn(List.of("m1"), new long[] {11});
        copies.handedOn(List.of("m1"), new long[] {21});

        assertThat(copies.storedIn(List.of("m1"))).containsExactly(21);
    }
}

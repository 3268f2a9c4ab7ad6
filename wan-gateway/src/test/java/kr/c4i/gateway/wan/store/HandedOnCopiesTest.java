package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HandedOnCopiesTest {

    @Test
    void theOldestAreForgottenFirstAndAnUnknownStoringIsNotKept() {
        HandedOnCopies copies = new HandedOnCopies(3);
        copies.handedOn("m1", 11);
        copies.handedOn("m2", 12);
        copies.handedOn("m0", 0);
        copies.handedOn("m3", 13);
        copies.handedOn("m4", 14);

        assertThat(copies.storedIn("m1")).as("the oldest, past the capacity").isZero();
        assertThat(copies.storedIn("m0")).as("stored before a restart: not known").isZero();
        assertThat(copies.storedIn("m2")).isEqualTo(12);
        assertThat(copies.storedIn("m4")).isEqualTo(14);
        assertThat(copies.storedIn("never")).isZero();
    }

    @Test
    void aMessageHandedOnAgainNamesItsLatestStoring() {
        HandedOnCopies copies = new HandedOnCopies(3);
        copies.handedOn("m1", 11);
        copies.handedOn("m1", 21);

        assertThat(copies.storedIn("m1")).isEqualTo(21);
    }
}

package kr.c4i.gateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.text.Classification;

class ClearancesTest {

    private final Clearances clearances = Clearances.of(Map.of("b", "CONFIDENTIAL", "c", "secret"),
            Classification.UNCLASSIFIED, "gateway.routing.clearances");

    @Test
    void aDestinationGetsWhatItsClearanceDominates() {
        assertThat(clearances.clears("b", Classification.CONFIDENTIAL)).isTrue();
        assertThat(clearances.clears("b", Classification.SECRET)).isFalse();
        assertThat(clearances.clears("c", Classification.SECRET)).isTrue();
        assertThat(clearances.clears("c", Classification.TOP_SECRET)).isFalse();
    }

    @Test
    void aDestinationNotListedHasTheDefaultClearance() {
        assertThat(clearances.of("d")).isEqualTo(Classification.UNCLASSIFIED);
        assertThat(clearances.clears("d", Classification.UNCLASSIFIED)).isTrue();
        assertThat(clearances.clears("d", Classification.RESTRICTED)).isFalse();
        assertThat(clearances.unlisted(List.of("b", "d", "e"))).containsExactly("d", "e");
    }

    @Test
    void labelsAreComparedByLevelCaveatsIgnoredAndAnUnreadableLabelCountsAsTopSecret() {
        assertThat(clearances.clearsLabel("c", "SECRET//REL TO USA, KOR")).isTrue();
        assertThat(clearances.clearsLabel("b", "SECRET//REL TO USA, KOR")).isFalse();
        assertThat(Clearances.levelOfLabel("NOT A LEVEL")).isEqualTo(Classification.TOP_SECRET);
        assertThat(clearances.clearsLabel("c", "NOT A LEVEL")).isFalse();
    }

    @Test
    void aLabelReadAgainHasTheSameLevelAlsoPastTheLabelsKept() {
        for (int round = 0; round < 2; round++) {
            assertThat(Clearances.levelOfLabel("SECRET//REL TO KOR")).isEqualTo(Classification.SECRET);
            assertThat(Clearances.levelOfLabel("BOGUS//X")).isEqualTo(Classification.TOP_SECRET);
        }
        // More distinct labels than are kept: each still reads right, the first ones too.
        for (int i = 0; i < 3_000; i++) {
            assertThat(Clearances.levelOfLabel("CONFIDENTIAL//REL TO K" + i)).isEqualTo(Classification.CONFIDENTIAL);
        }
        assertThat(Clearances.levelOfLabel("SECRET//REL TO KOR")).isEqualTo(Classification.SECRET);
        assertThat(Clearances.levelOfLabel("CONFIDENTIAL//REL TO K0")).isEqualTo(Classification.CONFIDENTIAL);
    }

    @Test
    void everyUnknownLevelIsNamedAtOnce() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Clearances.of(Map.of("b", "SECERT", "c", "COSMIC", "d", "SECRET"),
                        Classification.UNCLASSIFIED, "gateway.routing.clearances"))
                .withMessageContaining("gateway.routing.clearances.b: 'SECERT' is not a classification level")
                .withMessageContaining("gateway.routing.clearances.c: 'COSMIC'");
    }

    @Test
    void unrestrictedClearsEverything() {
        assertThat(Clearances.unrestricted().clears("anyone", Classification.TOP_SECRET)).isTrue();
    }
}

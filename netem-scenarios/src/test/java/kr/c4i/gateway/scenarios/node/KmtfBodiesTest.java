package kr.c4i.gateway.scenarios.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

class KmtfBodiesTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @Test
    void bodiesHaveExactlyTheStudysSizesAndAreValidKmtf() throws Exception {
        KmtfValidator validator = new KmtfValidator(CATALOGUE);
        for (int size : new int[] { 200, 1024 }) {
            List<byte[]> bodies = KmtfBodies.of("SITREP", size, 12);
            assertThat(bodies).hasSize(12).allMatch(b -> b.length == size);
            for (byte[] body : bodies) {
                validator.validate(body, "SITREP");
            }
        }
    }

    @Test
    void aSizeBelowTheSmallestMessageIsRefused() {
        int minimum = KmtfBodies.minimumSize("SITREP");
        assertThat(KmtfBodies.of("SITREP", minimum + 5, 1).getFirst()).hasSize(minimum + 5);
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfBodies.of("SITREP", minimum - 10, 1));
    }

    @Test
    void theReliableTypeIsThePreferredOneWhenItFits() {
        assertThat(KmtfBodies.reliableType(CATALOGUE, "SITREP", 1024).id()).isEqualTo("SITREP");
        assertThat(KmtfBodies.reliableType(CATALOGUE, "NOSUCHTYPE", 1024).reliability())
                .isEqualTo(Reliability.RELIABLE);
    }
}

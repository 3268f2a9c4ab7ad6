package kr.c4i.gateway.scenarios.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.wan.frame.KmtfDictionary;

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
    void theMixHasTheExactSizeIsValidKmtfAndVariesFromMessageToMessage() throws Exception {
        KmtfValidator validator = new KmtfValidator(CATALOGUE);
        for (int size : new int[] { 200, 1024 }) {
            List<byte[]> bodies = KmtfBodies.mix("LOGSITREP", size, 200, new SplittableRandom(7));
            assertThat(bodies).hasSize(200).allMatch(b -> b.length == size);
            for (byte[] body : bodies) {
                validator.validate(body, "LOGSITREP");
            }
            List<String> texts = bodies.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
            assertThat(texts).doesNotHaveDuplicates();
            assertThat(texts.stream().map(t -> t.lines().skip(1).findFirst().orElseThrow().split("/")[2]).distinct())
                    .as("originators").hasSizeGreaterThan(5);
        }
    }

    @Test
    void aSeededMixIsTheSameSequenceEveryTimeAndCarriesOnFromCallToCall() {
        SplittableRandom first = new SplittableRandom(42);
        List<byte[]> inTwoCalls = new java.util.ArrayList<>(KmtfBodies.mix("LOGSITREP", 200, 3, first));
        inTwoCalls.addAll(KmtfBodies.mix("LOGSITREP", 200, 3, first));
        List<byte[]> inOne = KmtfBodies.mix("LOGSITREP", 200, 6, new SplittableRandom(42));
        // DTGs are taken from the clock; a minute turning between the calls may move one, so compare the rest.
        assertThat(inTwoCalls.stream().map(KmtfBodiesTest::withoutDtg).toList())
                .isEqualTo(inOne.stream().map(KmtfBodiesTest::withoutDtg).toList());
    }

    @Test
    void theMixCompressesAsVariedTextDoesAndTheFillerToAlmostNothing() {
        // The WAN link's Deflate (raw, level 6, its KMTF dictionary) over blocks of 1,200 bytes, a frame's worth.
        assertThat(deflated(KmtfBodies.mix("LOGSITREP", 200, 600, new SplittableRandom(42)))).isGreaterThan(0.3);
        assertThat(deflated(KmtfBodies.of("LOGSITREP", 200, 600))).isLessThan(0.25);
    }

    private static double deflated(List<byte[]> bodies) {
        long before = 0;
        long after = 0;
        byte[] out = new byte[64 * 1024];
        for (int first = 0; first < bodies.size(); first += 6) {
            Deflater deflater = new Deflater(6, true);
            deflater.setDictionary(KmtfDictionary.bytes());
            for (byte[] body : bodies.subList(first, Math.min(bodies.size(), first + 6))) {
                deflater.setInput(body);
                before += body.length;
                while (!deflater.needsInput()) {
                    after += deflater.deflate(out);
                }
            }
            deflater.finish();
            while (!deflater.finished()) {
                after += deflater.deflate(out);
            }
            deflater.end();
        }
        return (double) after / before;
    }

    private static String withoutDtg(byte[] body) {
        return new String(body, StandardCharsets.UTF_8).replaceAll("DTG/[0-9A-Z]+//", "DTG//");
    }

    @Test
    void theReliableTypeIsThePreferredOneWhenItFits() {
        assertThat(KmtfBodies.reliableType(CATALOGUE, "SITREP", 1024).id()).isEqualTo("SITREP");
        assertThat(KmtfBodies.reliableType(CATALOGUE, "NOSUCHTYPE", 1024).reliability())
                .isEqualTo(Reliability.RELIABLE);
    }
}

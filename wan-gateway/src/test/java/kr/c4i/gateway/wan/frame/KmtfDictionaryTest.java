package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

class KmtfDictionaryTest {

    /**
     * The checked-in dictionary is what {@link KmtfDictionary#generate} makes of the default catalogue. When this
     * fails after a deliberate change of recipe or catalogue, the new bytes are in target/kmtf.dict: give them a new
     * dictionary id (gateways of the old id must keep reading), then copy them over the resource.
     */
    @Test
    void checkedInDictionaryIsRegeneratedFromTheCatalogue() throws IOException {
        byte[] generated = KmtfDictionary.generate(KmtfCatalogue.loadDefault());
        Files.write(Path.of("target", "kmtf.dict"), generated);
        assertThat(generated).hasSizeBetween(1024, 8 * 1024);
        assertThat(Arrays.equals(KmtfDictionary.bytes(), generated))
                .as("src/main/resources/.../kmtf.dict is the same bytes as the regenerated target/kmtf.dict").isTrue();
    }

    @Test
    void generatingIsReproducible() {
        assertThat(KmtfDictionary.generate(KmtfCatalogue.loadDefault()))
                .isEqualTo(KmtfDictionary.generate(KmtfCatalogue.loadDefault()));
    }
}

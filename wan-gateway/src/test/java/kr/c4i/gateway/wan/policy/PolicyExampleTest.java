package kr.c4i.gateway.wan.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.wan.schedule.NanoClock;

import static org.assertj.core.api.Assertions.assertThat;

/** The example policy operators copy from docs/wan-gateway.md reads cleanly against the shipped catalogue. */
class PolicyExampleTest {

    private static final Path DOC = Path.of("../docs/wan-gateway.md");

    @Test
    void theDocumentedExampleIsAValidPolicy() throws IOException {
        String doc = Files.readString(DOC);
        int section = doc.indexOf("## Policy");
        int start = doc.indexOf("```yaml\n", section) + "```yaml\n".length();
        String yaml = doc.substring(start, doc.indexOf("```", start));

        RelayPolicy policy = RelayPolicy.read(yaml, DOC.toString(), KmtfCatalogue.loadDefault(), NanoClock.SYSTEM,
                InstantSource.system());

        assertThat(policy.allows("SITREP")).isTrue();
        assertThat(policy.allows("PERSTAT")).isFalse();
    }
}

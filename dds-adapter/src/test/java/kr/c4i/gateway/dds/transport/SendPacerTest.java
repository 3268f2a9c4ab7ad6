package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

class SendPacerTest {

    @Test
    void aSampleLargerThanTheBurstIsPacedInPiecesInsteadOfRefused() throws Exception {
        // 80 kbit/s = 10,000 B/s; the first 1,000 B go at once, the other 4,000 B take 400 ms.
        SendPacer pacer = new SendPacer(80_000, 1_000);
        long started = System.nanoTime();
        pacer.pace(5_000);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(380));
        assertThat(pacer.parked()).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aSampleCountsItsPayloadTextsAndTheFixedOverhead() {
        byte[] body = "MSGID/SITREP/1사단//".getBytes(StandardCharsets.UTF_8);
        KmtfMessageSample sample = new KmtfMessageSample("alpha-1", "alpha", "SITREP", Precedence.ROUTINE, "비밀", 0,
                1, 0, body);
        assertThat(SendPacer.wireBytes(sample))
                .isEqualTo(SendPacer.SAMPLE_OVERHEAD_BYTES + body.length + 7 + 5 + 6 + "비밀".getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void aPaceTooSlowToMeanAnythingIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new SendPacer(7, 1400)).withMessageContaining("8 bit/s");
        assertThatIllegalArgumentException().isThrownBy(() -> new SendPacer(8_000, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> DdsTransportSettings.defaults().withSendRate(-1))
                .withMessageContaining("sendRate");
    }
}

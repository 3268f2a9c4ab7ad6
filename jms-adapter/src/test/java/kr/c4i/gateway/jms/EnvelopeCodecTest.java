package kr.c4i.gateway.jms;

import java.time.Instant;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import org.junit.jupiter.api.Test;

import static kr.c4i.gateway.jms.Fixtures.envelope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class EnvelopeCodecTest {

    static Envelope createdAt(String messageId, Instant createdAt) {
        Envelope e = envelope(messageId, "a");
        return new Envelope(e.messageId(), e.origin(), e.kmtfType(), e.precedence(), e.classification(), createdAt,
                e.body());
    }

    @Test
    void createdAtRoundTripsExactlyWhateverTheCalendarOfTheYear() {
        for (String text : new String[] { "1500-01-01T00:00:00Z", "1582-10-10T12:00:00.000001Z",
                "1678-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z", "2261-12-31T23:59:59.999999Z" }) {
            Instant instant = Instant.parse(text);
            assertThat(EnvelopeCodec.fromMicros(EnvelopeCodec.toMicros(instant))).as(text).isEqualTo(instant);
        }
    }

    @Test
    void infinityIsRejectedForThatMessageAloneNotAnArithmeticFailure() {
        // What the outbox reads for PostgreSQL's infinity and -infinity.
        for (Instant infinity : new Instant[] { Instant.MAX, Instant.MIN }) {
            assertThatExceptionOfType(MessageRejectedException.class)
                    .isThrownBy(() -> EnvelopeCodec.checkEncodable(createdAt("inf", infinity)))
                    .satisfies(ex -> assertThat(ex.messageId()).isEqualTo("inf"))
                    .satisfies(ex -> assertThat(ex.retryable()).isFalse())
                    .withMessageContaining(EnvelopeCodec.CREATED_AT_MICROS);
        }
        assertThatNoException().isThrownBy(
                () -> EnvelopeCodec.checkEncodable(createdAt("julian", Instant.parse("1500-01-01T00:00:00Z"))));
    }
}

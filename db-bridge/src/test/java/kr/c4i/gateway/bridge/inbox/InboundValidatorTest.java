package kr.c4i.gateway.bridge.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.bridge.inbox.InboundValidator.Rejection;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

class InboundValidatorTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final InboundValidator VALIDATOR = new InboundValidator(
            new KmtfValidator(KmtfCatalogue.loadDefault()));

    private static Envelope envelope(String id, String type, String classification, Instant created, byte[] body) {
        return new Envelope(id, NodeId.of("alpha"), type, Precedence.ROUTINE, classification, created, body);
    }

    private static Envelope good() {
        return envelope("m-1", "SITREP", "UNCLASSIFIED", NOW.minusSeconds(1), utf8(Kmtf.message("SITREP", 1)));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Optional<String> kind(Envelope envelope) {
        return VALIDATOR.check(envelope).map(Rejection::kind);
    }

    @Test
    void validKmtfOfItsTypeWithItsOwnClassificationPasses() {
        assertThat(VALIDATOR.check(good())).isEmpty();
        // Whatever the sending side accepts, at both ends of its range.
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", Envelope.EARLIEST_CREATED_AT,
                good().body()))).isEmpty();
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", Envelope.LATEST_CREATED_AT.minusNanos(1000),
                good().body()))).isEmpty();
    }

    @Test
    void messageIdsTheInboxCannotHoldAreRefused() {
        Envelope good = good();
        assertThat(kind(envelope("m\u00001", "SITREP", "UNCLASSIFIED", good.createdAt(), good.body())))
                .contains(InboundValidator.INVALID_MESSAGE_ID);
        // Characters, not bytes: an id the outbox accepts (Korean included) is accepted here too.
        String longest = "가".repeat(Envelope.MAX_MESSAGE_ID_LENGTH);
        assertThat(kind(envelope(longest, "SITREP", "UNCLASSIFIED", good.createdAt(), good.body()))).isEmpty();
        assertThat(kind(envelope(longest + "x", "SITREP", "UNCLASSIFIED", good.createdAt(), good.body())))
                .contains(InboundValidator.INVALID_MESSAGE_ID);
    }

    @Test
    void createdAtOutsideTheSendingSidesRangeIsRefused() {
        byte[] body = good().body();
        for (Instant absurd : new Instant[] { Instant.parse("1677-09-21T00:12:44Z"),
                Envelope.EARLIEST_CREATED_AT.minusNanos(1000), Envelope.LATEST_CREATED_AT,
                Instant.parse("2262-04-11T23:47:16Z"),
                Instant.MAX, Instant.MIN }) {
            assertThat(VALIDATOR.check(envelope("m-1", "SITREP", "UNCLASSIFIED", absurd, body)))
                    .as("created at %s", absurd).get()
                    .satisfies(r -> assertThat(r.kind()).isEqualTo(InboundValidator.INVALID_CREATED_AT))
                    .satisfies(r -> assertThat(r.reason()).contains(absurd.toString()));
        }
    }

    @Test
    void blankOverlongOrNulClassificationsAreRefused() {
        byte[] body = good().body();
        for (String classification : new String[] { "", "  ", "UNCLAS\u0000SIFIED",
                "U".repeat(InboundValidator.MAX_CLASSIFICATION_CHARS + 1) }) {
            assertThat(kind(envelope("m-1", "SITREP", classification, NOW, body)))
                    .contains(InboundValidator.INVALID_CLASSIFICATION);
        }
    }

    @Test
    void aClassificationOtherThanTheTextsOwnIsRefused() {
        assertThat(VALIDATOR.check(envelope("m-1", "SITREP", "TOP SECRET", NOW, good().body()))).get()
                .satisfies(r -> assertThat(r.kind()).isEqualTo(InboundValidator.CLASSIFICATION_MISMATCH))
                .satisfies(r -> assertThat(r.reason()).contains("TOP SECRET").contains("'UNCLASSIFIED'"));
    }

    @Test
    void aMessageClassifiedAboveThisNodesClearanceIsRefusedAndTheRestPass() {
        InboundValidator confidential = new InboundValidator(new KmtfValidator(KmtfCatalogue.loadDefault()),
                Classification.CONFIDENTIAL);
        for (String line : new String[] { "UNCLASSIFIED", "RESTRICTED", "CONFIDENTIAL//REL KOR" }) {
            assertThat(confidential.check(classified("m-1", line))).as(line).isEmpty();
        }
        assertThat(confidential.check(classified("m-2", "SECRET//REL TO USA, KOR"))).get()
                .satisfies(r -> assertThat(r.kind()).isEqualTo(InboundValidator.CLEARANCE_EXCEEDED))
                .satisfies(r -> assertThat(r.reason()).isEqualTo("message m-2 is SECRET ('SECRET//REL TO USA, KOR'); "
                        + "this node is cleared CONFIDENTIAL"));
        assertThat(confidential.check(classified("m-3", "TOP SECRET")).map(Rejection::kind))
                .contains(InboundValidator.CLEARANCE_EXCEEDED);
    }

    private static Envelope classified(String id, String line) {
        String text = new KmtfMessageBuilder().classification(line).msgid("SITREP", "1CORPS", "1")
                .set("DTG", "211430ZNOV2026").build().render();
        return envelope(id, "SITREP", line, NOW, utf8(text));
    }

    @Test
    void theBodyIsCheckedAsTheSendingSideChecksItsOutbox() {
        Instant t = NOW;
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", t, new byte[0]))).contains(KmtfRejection.EMPTY);
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", t, new byte[16385])))
                .contains(KmtfRejection.OVERSIZE);
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", t, new byte[] { 'M', (byte) 0xC3, 0x28 })))
                .contains(KmtfRejection.INVALID_ENCODING);
        assertThat(kind(envelope("m-1", "NOSUCHTYPE", "UNCLASSIFIED", t, good().body())))
                .contains(KmtfRejection.UNKNOWN_TYPE);
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", t, utf8(Kmtf.message("OPORD", 1)))))
                .contains(KmtfRejection.TYPE_MISMATCH);
        assertThat(kind(envelope("m-1", "SITREP", "UNCLASSIFIED", t, utf8("just some text, not KMTF"))))
                .get().isNotIn(KmtfRejection.EMPTY, KmtfRejection.OVERSIZE, KmtfRejection.INVALID_ENCODING,
                        KmtfRejection.UNKNOWN_TYPE, KmtfRejection.TYPE_MISMATCH);
    }
}

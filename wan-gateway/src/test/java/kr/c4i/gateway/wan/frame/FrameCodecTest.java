package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

class FrameCodecTest {

    private final FrameCodec codec = FrameCodec.standard();

    private static RelayedEnvelope relayed(String messageId, String body, Instant createdAt) {
        Envelope envelope = new Envelope(messageId, NodeId.of("node-a"), "SITREP", Precedence.FLASH,
                "SECRET//REL TO USA, KOR", createdAt, body.getBytes(StandardCharsets.UTF_8));
        return RelayedEnvelope.of(envelope, List.of(SiteId.of("seoul"), SiteId.of("daejeon")),
                Set.of(SiteId.of("busan"), SiteId.of("gwangju")));
    }

    @Test
    void dataFrameCarriesEveryFieldOfEveryEnvelope() throws FrameFormatException {
        List<RelayedEnvelope> envelopes = List.of(
                relayed("3f2b8c4e-0d1a-4e5f-9a7b-1c2d3e4f5a6b", "MSGID/SITREP/2DIV/1//\n",
                        Instant.parse("2026-11-22T16:04:08.123456789Z")),
                relayed("outbox-42/관측", "NARR/적 활동 없음 — ÄÖÜ 🚁//\n", Envelope.EARLIEST_CREATED_AT),
                relayed("3F2B8C4E-0D1A-4E5F-9A7B-1C2D3E4F5A6B", "", Envelope.LATEST_CREATED_AT.minusNanos(1)),
                new RelayedEnvelope(new Envelope("x", NodeId.of("n"), "", Precedence.ROUTINE, "",
                        Instant.parse("1969-12-31T23:59:59.999999999Z"), new byte[] { 0, (byte) 0xFF, 10 }),
                        List.of(SiteId.of("a")), new TreeSet<>(Set.of(SiteId.of("b")))));

        Frame decoded = codec.decode(codec.data(-7_123_456_789L, 42, envelopes));

        assertThat(decoded).isEqualTo(new DataFrame(-7_123_456_789L, 42, envelopes));
        DataFrame data = (DataFrame) decoded;
        assertThat(data.envelopes().get(1).envelope().text()).isEqualTo("NARR/적 활동 없음 — ÄÖÜ 🚁//\n");
        assertThat(data.envelopes().get(0).envelope().createdAt().getNano()).isEqualTo(123_456_789);
        assertThat(data.envelopes().get(0).crossed()).containsExactly(SiteId.of("seoul"), SiteId.of("daejeon"));
    }

    @Test
    void dataFrameTakesTheLargestValues() throws FrameFormatException {
        String longestId = "가".repeat(Envelope.MAX_MESSAGE_ID_LENGTH);
        byte[] body = new byte[1024 * 1024];
        Arrays.fill(body, (byte) 'A');
        Envelope envelope = new Envelope(longestId, NodeId.of("n".repeat(63)), "OPLAN", Precedence.PRIORITY,
                "UNCLASSIFIED", Instant.parse("2026-01-01T00:00:00Z"), body);
        List<SiteId> crossed = new ArrayList<>();
        TreeSet<SiteId> boundFor = new TreeSet<>();
        for (int i = 0; i < EnvelopeRecords.MAX_SITES; i++) {
            crossed.add(SiteId.of("c" + i));
            boundFor.add(SiteId.of("b" + i));
        }
        RelayedEnvelope largest = new RelayedEnvelope(envelope, crossed, boundFor);

        DataFrame decoded = (DataFrame) codec.decode(codec.data(Long.MAX_VALUE, Long.MAX_VALUE, List.of(largest)));

        assertThat(decoded.envelopes()).containsExactly(largest);
        assertThat(decoded.seq()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void senderRefusesWhatAReceiverWouldRefuse() {
        RelayedEnvelope tooLongId = relayed("x".repeat(Envelope.MAX_MESSAGE_ID_LENGTH + 1), "b",
                Instant.parse("2026-01-01T00:00:00Z"));
        RelayedEnvelope tooEarly = relayed("id", "b", Envelope.EARLIEST_CREATED_AT.minusNanos(1));

        assertThatThrownBy(() -> codec.data(1, 1, List.of(tooLongId))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 255");
        assertThatThrownBy(() -> codec.data(1, 1, List.of(tooEarly))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside what transports carry");
        assertThatThrownBy(() -> codec.data(1, 1, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.data(1, -1, List.of(relayed("id", "b", Instant.EPOCH))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFastestCodecsFramesAreReadByTheStandardOneAndCostMoreBytes() throws FrameFormatException {
        List<RelayedEnvelope> envelopes = new TestEnvelopes(5).list(300, 150, 250);
        FrameCodec fastest = codec.fastest();

        byte[] fast = fastest.data(1, 1, envelopes);
        byte[] standard = codec.data(1, 1, envelopes);

        assertThat(codec.decode(fast)).isEqualTo(new DataFrame(1, 1, envelopes));
        assertThat(fastest.decode(standard)).isEqualTo(new DataFrame(1, 1, envelopes));
        assertThat(fastest.sending().id()).isEqualTo(KmtfDictionary.ID);
        // Level 1 against level 6: fewer matches looked for, a larger frame.
        assertThat(fast.length).isGreaterThan(standard.length);
        assertThat(fastest.fastest()).isSameAs(fastest);
        FrameCodec none = new FrameCodec(FrameCompression.NONE);
        assertThat(none.fastest()).isSameAs(none);
    }

    @Test
    void receiptCarriesItsSequenceNumbersAsRanges() throws FrameFormatException {
        List<Long> seqs = List.of(0L, 1L, 2L, 3L, 7L, 9L, 10L, 3L, Long.MAX_VALUE - 1, Long.MAX_VALUE);

        byte[] frame = codec.receipt(99, seqs);

        assertThat(codec.decode(frame)).isEqualTo(new ReceiptFrame(99, new TreeSet<>(seqs)));
        assertThat(frame.length).as("four ranges, not ten numbers").isLessThan(2 + 8 + 1 + 8 * 2 + 9 + 4);
        assertThat(codec.decode(codec.receipt(-5, List.of()))).isEqualTo(new ReceiptFrame(-5, new TreeSet<>()));
    }

    @Test
    void receiptTakesItsLargestCountAndNoMore() throws FrameFormatException {
        List<Long> everyOther = LongStream.range(0, FrameCodec.MAX_RECEIPT_SEQS).map(i -> i * 2).boxed().toList();

        assertThat(((ReceiptFrame) codec.decode(codec.receipt(1, everyOther))).seqs()).hasSize(everyOther.size());
        assertThatThrownBy(() -> codec.receipt(1, LongStream.rangeClosed(0, FrameCodec.MAX_RECEIPT_SEQS).boxed()
                .toList())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 65536");
        assertThatThrownBy(() -> codec.receipt(1, List.of(-1L))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownDictionaryIdIsRefused() {
        FrameCodec other = new FrameCodec(
                new DeflateCompression(7, "other", "MSGID/".getBytes(StandardCharsets.UTF_8), 6));
        byte[] frame = other.data(1, 1, List.of(relayed("id", "MSGID/SITREP//", Instant.EPOCH)));

        assertThatThrownBy(() -> codec.decode(frame)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining("Unknown dictionary id 7");
    }

    @Test
    void sameIdWithOtherDictionaryBytesIsRefused() {
        FrameCodec other = new FrameCodec(new DeflateCompression(KmtfDictionary.ID, "other",
                "NARR/NOTHING LIKE THE CATALOGUE//\n".repeat(100).getBytes(StandardCharsets.UTF_8), 9));
        byte[] frame = other.data(1, 1, new TestEnvelopes(3).list(3, 300, 600));

        assertThatThrownBy(() -> codec.decode(frame)).isInstanceOf(FrameFormatException.class);
    }

    @Test
    void everyTruncationAndEveryFlippedByteIsRefused() {
        List<byte[]> frames = List.of(codec.data(5, 6, new TestEnvelopes(1).list(4, 100, 400)),
                codec.receipt(5, List.of(1L, 2L, 3L, 9L)));
        for (byte[] frame : frames) {
            for (int length = 0; length < frame.length; length++) {
                byte[] truncated = Arrays.copyOf(frame, length);
                assertThatThrownBy(() -> codec.decode(truncated)).isInstanceOf(FrameFormatException.class);
            }
            for (int i = 0; i < frame.length; i++) {
                byte[] flipped = frame.clone();
                flipped[i] ^= (byte) (1 << (i % 8));
                assertThatThrownBy(() -> codec.decode(flipped)).as("byte %d flipped", i)
                        .isInstanceOf(FrameFormatException.class);
            }
        }
    }

    @Test
    void otherVersionAndKindAreNamed() {
        byte[] frame = codec.receipt(1, List.of(1L));
        byte[] version2 = frame.clone();
        version2[0] = 2;
        byte[] kind9 = frame.clone();
        kind9[1] = 9;

        assertThatThrownBy(() -> codec.decode(version2)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining("Unsupported frame version 2");
        assertThatThrownBy(() -> codec.decode(kind9)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining("Unknown frame kind 9");
    }

    /** Blocks a sender never makes, written uncompressed so the CRC holds and only the content is wrong. */
    @Test
    void invalidValuesInsideABlockAreRefused() {
        FrameCodec plain = new FrameCodec(FrameCompression.NONE);
        assertRefused(plain, block(" ", "node-a", "seoul", 0), "is blank");
        assertRefused(plain, block("m-1", "node-a!", "seoul", 0), "Invalid node id 'node-a!'");
        assertRefused(plain, block("m-1", "node-a", "Seoul", 0), "Invalid site id 'Seoul'");
        assertRefused(plain, block("m-1", "node-a", "seoul", 9), "precedence 9");
        assertRefused(plain, new ByteSink(0), "carries no envelope");
    }

    private static ByteSink block(String messageId, String origin, String site, int precedence) {
        ByteSink block = new ByteSink(64);
        block.write(0);
        block.writeString(messageId);
        block.writeString(origin);
        block.writeString("SITREP");
        block.write(precedence);
        block.writeString("UNCLASSIFIED");
        block.writeZigZag(1_790_000_000L);
        block.writeVarLong(0);
        block.writeVarLong(1);
        block.write('x');
        block.writeVarLong(1);
        block.writeString(site);
        block.writeVarLong(1);
        block.writeString("busan");
        return block;
    }

    private static void assertRefused(FrameCodec plain, ByteSink block, String message) {
        byte[] frame = plain.data(1, 1, block.array(), block.size());
        assertThatThrownBy(() -> FrameCodec.standard().decode(frame)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining(message);
    }
}

package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

class FrameCodecTest {

    private final FrameCodec codec = FrameCodec.standard();

    private static RelayedEnvelope relayed(String messageId, String body, Instant createdAt) {
        return relayed(messageId, body, createdAt, HopTrace.EMPTY);
    }

    private static RelayedEnvelope relayed(String messageId, String body, Instant createdAt, HopTrace trace) {
        Envelope envelope = new Envelope(messageId, NodeId.of("node-a"), "SITREP", Precedence.FLASH,
                "SECRET//REL TO USA, KOR", createdAt, body.getBytes(StandardCharsets.UTF_8), trace);
        return RelayedEnvelope.of(envelope, List.of(SiteId.of("seoul"), SiteId.of("daejeon")),
                Set.of(SiteId.of("busan"), SiteId.of("gwangju")));
    }

    /** Sent by node-a, relayed by seoul and daejeon; times in whole milliseconds after {@code createdAt}. */
    private static HopTrace acrossTwoSites(Instant createdAt) {
        return HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, createdAt.plusMillis(3)))
                .with(Hop.site(SiteId.of("seoul"), Action.RELAYED, createdAt.plusMillis(17)))
                .with(Hop.site(SiteId.of("daejeon"), Action.RELAYED, createdAt.plusMillis(86_400_000L)));
    }

    private static List<HopTrace> traces(List<RelayedEnvelope> envelopes) {
        return envelopes.stream().map(r -> r.envelope().trace()).toList();
    }

    @Test
    void dataFrameCarriesEveryFieldOfEveryEnvelope() throws FrameFormatException {
        Instant created = Instant.parse("2026-11-22T16:04:08.123456789Z");
        List<RelayedEnvelope> envelopes = List.of(
                relayed("3f2b8c4e-0d1a-4e5f-9a7b-1c2d3e4f5a6b", "MSGID/SITREP/2DIV/1//\n", created,
                        acrossTwoSites(created)),
                relayed("outbox-42/관측", "NARR/적 활동 없음 — ÄÖÜ 🚁//\n", Envelope.EARLIEST_CREATED_AT),
                relayed("3F2B8C4E-0D1A-4E5F-9A7B-1C2D3E4F5A6B", "", Envelope.LATEST_CREATED_AT.minusNanos(1)),
                new RelayedEnvelope(new Envelope("x", NodeId.of("n"), "", Precedence.ROUTINE, "",
                        Instant.parse("1969-12-31T23:59:59.999999999Z"), new byte[] { 0, (byte) 0xFF, 10 }),
                        List.of(SiteId.of("a")), new TreeSet<>(Set.of(SiteId.of("b")))));

        Frame decoded = codec.decode(codec.data(-7_123_456_789L, 42, envelopes));

        assertThat(decoded).isEqualTo(new DataFrame(-7_123_456_789L, 42, envelopes));
        DataFrame data = (DataFrame) decoded;
        assertThat(traces(data.envelopes())).as("traces are not part of an envelope's equality: compared here")
                .isEqualTo(traces(envelopes));
        assertThat(data.envelopes().get(1).envelope().text()).isEqualTo("NARR/적 활동 없음 — ÄÖÜ 🚁//\n");
        assertThat(data.envelopes().get(0).envelope().createdAt().getNano()).isEqualTo(123_456_789);
        assertThat(data.envelopes().get(0).crossed()).containsExactly(SiteId.of("seoul"), SiteId.of("daejeon"));
    }

    @Test
    void dataFrameTakesTheLargestValues() throws FrameFormatException {
        String longestId = "가".repeat(Envelope.MAX_MESSAGE_ID_LENGTH);
        byte[] body = new byte[1024 * 1024];
        Arrays.fill(body, (byte) 'A');
        Instant created = Instant.parse("2026-01-01T00:00:00Z");
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("n".repeat(63)), Action.SENT, created));
        for (int i = 0; i < 1_000; i++) {
            trace = trace.with(Hop.site(SiteId.of("s".repeat(60) + i), Action.RELAYED,
                    created.plusMillis(Long.MAX_VALUE / 1_000 * i)));
        }
        Envelope envelope = new Envelope(longestId, NodeId.of("n".repeat(63)), "OPLAN", Precedence.PRIORITY,
                "UNCLASSIFIED", created, body, trace);
        List<SiteId> crossed = new ArrayList<>();
        TreeSet<SiteId> boundFor = new TreeSet<>();
        for (int i = 0; i < EnvelopeRecords.MAX_SITES; i++) {
            crossed.add(SiteId.of("c" + i));
            boundFor.add(SiteId.of("b" + i));
        }
        RelayedEnvelope largest = new RelayedEnvelope(envelope, crossed, boundFor);

        DataFrame decoded = (DataFrame) codec.decode(codec.data(Long.MAX_VALUE, Long.MAX_VALUE, List.of(largest)));

        assertThat(decoded.envelopes()).containsExactly(largest);
        assertThat(decoded.envelopes().getFirst().envelope().trace()).isEqualTo(trace);
        assertThat(trace.hops()).hasSize(HopTrace.MAX_HOPS);
        assertThat(trace.omitted()).isEqualTo(1_001 - HopTrace.MAX_HOPS);
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

    /**
     * Each hop's time goes as whole milliseconds after the creation time, cut towards zero as the trace's text cuts
     * them; a hop before the creation (another clock) is a negative number.
     */
    @Test
    void traceTimesTravelAsMillisecondsAfterCreation() throws FrameFormatException {
        Instant created = Instant.parse("2026-11-22T16:04:08.123456789Z");
        HopTrace sent = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, created.minusNanos(1_500_000)))
                .with(Hop.site(SiteId.of("seoul"), Action.RELAYED, created.plusNanos(17_999_999)))
                .with(Hop.node(NodeId.of("node-c"), Action.DELIVERED, created.plusSeconds(3)));

        DataFrame decoded = (DataFrame) codec.decode(codec.data(1, 1, List.of(relayed("m-1", "b", created, sent))));

        HopTrace trace = decoded.envelopes().getFirst().envelope().trace();
        assertThat(trace.hops()).extracting(Hop::at).containsExactly(created.minusMillis(1), created.plusMillis(17),
                created.plusMillis(3_000));
        assertThat(trace.format(created)).isEqualTo(sent.format(created))
                .isEqualTo("node node-a sent -1ms; site seoul relayed +17ms; node node-c delivered +3000ms");
    }

    /**
     * What a trace adds to a record: one byte without hops; per hop a byte, the name unless the record implies it (the
     * origin node, the crossed sites in order), and the time; then one byte. The record names node-a as the origin and
     * seoul and daejeon as the sites crossed.
     */
    @Test
    void aTraceCostsFewBytes() throws FrameFormatException {
        FrameCodec plain = new FrameCodec(FrameCompression.NONE);
        Instant created = Instant.parse("2026-11-22T16:04:08Z");
        HopTrace implied = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, created.plusMillis(3)))
                .with(Hop.site(SiteId.of("seoul"), Action.RELAYED, created.plusMillis(17)));
        HopTrace named = HopTrace.EMPTY.with(Hop.node(NodeId.of("a"), Action.SENT, created.plusMillis(3)))
                .with(Hop.site(SiteId.of("daejeon"), Action.RELAYED, created.plusMillis(17)));

        int without = plain.data(1, 1, List.of(relayed("m-1", "b", created))).length;
        byte[] withImplied = plain.data(1, 1, List.of(relayed("m-1", "b", created, implied)));
        byte[] withNamed = plain.data(1, 1, List.of(relayed("m-1", "b", created, named)));

        // node-a +3: 1 + 1; seoul +17: 1 + 1; the count of hops left out: 1.
        assertThat(withImplied.length - without).isEqualTo(5);
        // a +3: 1 + 2 + 1; daejeon, second of the crossed sites where the first is due, +17: 1 + 8 + 1; then 1.
        assertThat(withNamed.length - without).isEqualTo(15);
        assertThat(((DataFrame) codec.decode(withImplied)).envelopes().getFirst().envelope().trace())
                .isEqualTo(implied);
        assertThat(((DataFrame) codec.decode(withNamed)).envelopes().getFirst().envelope().trace()).isEqualTo(named);
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

    /**
     * A version-1 gateway's frames (before traces) and a later version's are refused, saying which it reads; a
     * version-2 gateway's (before trace contexts) are read, and it is sent receipts of its version, which are this
     * one's. The version is under the CRC, so each is written again.
     */
    @Test
    void otherVersionAndKindAreNamed() throws FrameFormatException {
        byte[] frame = codec.receipt(1, List.of(1L));
        byte[] version1 = asVersion(frame, 1);
        byte[] version3 = asVersion(frame, 3);
        byte[] version4 = asVersion(frame, 4);
        byte[] kind9 = frame.clone();
        kind9[1] = 9;

        assertThat(frame[0]).isEqualTo((byte) FrameCodec.OLDEST_READ).isEqualTo((byte) 2);
        assertThat(codec.data(1, 1, new TestEnvelopes(1).list(1, 100, 100))[0]).isEqualTo((byte) FrameCodec.VERSION)
                .isEqualTo((byte) 3);
        assertThatThrownBy(() -> codec.decode(version1)).isInstanceOf(FrameFormatException.class)
                .hasMessage("Unsupported frame version 1: this gateway reads versions 2 to 3");
        assertThat(codec.decode(version3)).isEqualTo(codec.decode(frame)).isEqualTo(new ReceiptFrame(1,
                new TreeSet<>(Set.of(1L))));
        assertThatThrownBy(() -> codec.decode(version4)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining("Unsupported frame version 4");
        assertThatThrownBy(() -> codec.decode(kind9)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining("Unknown frame kind 9");
    }

    /** A receipt as this version, with its CRC-32C over the bytes before it. */
    private static byte[] asVersion(byte[] receipt, int version) {
        byte[] frame = receipt.clone();
        frame[0] = (byte) version;
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, frame.length - FrameCodec.CRC_BYTES);
        ByteBuffer.wrap(frame).putInt(frame.length - FrameCodec.CRC_BYTES, (int) crc.getValue());
        return frame;
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

    /** A trace no sender writes: each refused, naming the message where it can; a corrupt count allocates nothing. */
    @Test
    void invalidTracesAreRefused() {
        FrameCodec plain = new FrameCodec(FrameCompression.NONE);
        ByteSink valid = block("m-1", "node-a", "seoul", 0, 2);
        hop(valid, 0x00, "node-b", 3);
        valid.write(0x91);
        valid.writeZigZag(17);
        valid.writeVarLong(0);
        valid.write(0);
        assertThat(decodes(plain, valid).traceText()).isEqualTo("node node-b sent +3ms; site seoul relayed +17ms");

        assertRefused(plain, block("m-1", "node-a", "seoul", 0, HopTrace.MAX_HOPS + 1),
                "trace hop count is 17, at most 16 allowed");
        assertRefused(plain, block("m-1", "node-a", "seoul", 0, Long.MAX_VALUE),
                "trace hop count is 9223372036854775807, at most 16 allowed");
        assertRefused(plain, block("m-1", "node-a", "seoul", 0, -1), "trace hop count");
        ByteSink badName = block("m-1", "node-a", "seoul", 0, 1);
        hop(badName, 0x11, "Seoul", 17);
        badName.writeVarLong(0);
        assertRefused(plain, badName, "message m-1: trace hop 0: Invalid site id 'Seoul'");
        ByteSink badKind = block("m-1", "node-a", "seoul", 0, 1);
        hop(badKind, 0x21, "seoul", 17);
        badKind.writeVarLong(0);
        assertRefused(plain, badKind, "message m-1 has trace hop 0 of kind and action 0x21");
        ByteSink badAction = block("m-1", "node-a", "seoul", 0, 1);
        hop(badAction, 0x13, "seoul", 17);
        badAction.writeVarLong(0);
        assertRefused(plain, badAction, "message m-1 has trace hop 0 of kind and action 0x13");
        ByteSink noOmittedCount = block("m-1", "node-a", "seoul", 0, 1);
        hop(noOmittedCount, 0x11, "seoul", 17);
        assertRefused(plain, noOmittedCount, "Frame truncated: trace omitted hop count");
        ByteSink pastTheCrossedSites = block("m-1", "node-a", "seoul", 0, 2);
        pastTheCrossedSites.write(0x91);
        pastTheCrossedSites.writeZigZag(17);
        pastTheCrossedSites.write(0x91);
        pastTheCrossedSites.writeZigZag(40);
        pastTheCrossedSites.writeVarLong(0);
        assertRefused(plain, pastTheCrossedSites, "message m-1 has trace hop 1 named as its crossed site 2, but it "
                + "names 1");
        ByteSink tooManyOmitted = block("m-1", "node-a", "seoul", 0, 1);
        hop(tooManyOmitted, 0x11, "seoul", 17);
        tooManyOmitted.writeVarLong(1L << 31);
        assertRefused(plain, tooManyOmitted, "trace omitted hop count is 2147483648");
    }

    private static void hop(ByteSink block, int code, String name, long millis) {
        block.write(code);
        block.writeString(name);
        block.writeZigZag(millis);
    }

    private static Envelope decodes(FrameCodec plain, ByteSink block) {
        try {
            return ((DataFrame) FrameCodec.standard().decode(plain.data(1, 1, block.array(), block.size())))
                    .envelopes().getFirst().envelope();
        }
        catch (FrameFormatException ex) {
            throw new AssertionError(ex);
        }
    }

    private static ByteSink block(String messageId, String origin, String site, int precedence) {
        return block(messageId, origin, site, precedence, 0);
    }

    /**
     * A record up to its trace's hop count, which is {@code hops}; the hops, if any, and the trace context are the
     * caller's to write.
     */
    private static ByteSink block(String messageId, String origin, String site, int precedence, long hops) {
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
        block.writeVarLong(hops);
        return block;
    }

    private static void assertRefused(FrameCodec plain, ByteSink block, String message) {
        byte[] frame = plain.data(1, 1, block.array(), block.size());
        assertThatThrownBy(() -> FrameCodec.standard().decode(frame)).isInstanceOf(FrameFormatException.class)
                .hasMessageContaining(message);
    }
}

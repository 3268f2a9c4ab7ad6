package kr.c4i.gateway.wan.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/** The trace context in a record: what it costs, what a reader makes of it, and the format before it. */
@ExtendWith(OutputCaptureExtension.class)
class EnvelopeRecordsTest {

    private static final TraceParent CONTEXT = new TraceParent(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    private static final Instant CREATED = Instant.parse("2026-11-22T16:04:08.123456789Z");

    /**
     * A DATA frame as a version-2 gateway (before trace contexts) wrote it, Deflate with kmtf.dict: epoch 7, seq 42,
     * one envelope, {@link #GOLDEN_MESSAGE}, from node-a at seoul for busan, traced {@code node node-a sent +3ms; site
     * seoul relayed +17ms}.
     */
    private static final byte[] VERSION_2_FRAME = HexFormat.of().parseHex("02010100000000000000072a63b4d7eef1e395f28b"
            + "9f552da36be71f95cd96979f92aa9bc806b1828107d9f60f27676ce09d3aebbd95188a338c5c3cc3c0ce60642d4ecd2fcd6164"
            + "4d2a2d4ecc636a609ba8c4000062c4e10a");
    private static final String GOLDEN_MESSAGE = "3f2b8c4e-0d1a-4e5f-9a7b-1c2d3e4f5a6b";

    private static RelayedEnvelope relayed(String messageId, TraceParent traceParent) {
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, CREATED.plusMillis(3)))
                .with(Hop.site(SiteId.of("seoul"), Action.RELAYED, CREATED.plusMillis(17)));
        Envelope envelope = new Envelope(messageId, NodeId.of("node-a"), "SITREP", Precedence.FLASH, "UNCLASSIFIED",
                CREATED, "MSGID/SITREP/2DIV/1//\n".getBytes(StandardCharsets.UTF_8), trace, traceParent);
        return RelayedEnvelope.of(envelope, List.of(SiteId.of("seoul")), Set.of(SiteId.of("busan")));
    }

    private static byte[] record(RelayedEnvelope relayed) {
        ByteSink out = new ByteSink(64);
        EnvelopeRecords.write(relayed, out);
        return out.toByteArray();
    }

    private static List<Envelope> read(byte[] block, int version) throws FrameFormatException {
        ByteSource in = new ByteSource(block, 0, block.length);
        List<Envelope> envelopes = new ArrayList<>();
        while (in.hasRemaining()) {
            envelopes.add(EnvelopeRecords.read(in, version).envelope());
        }
        return envelopes;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    @Test
    void aRecordCarriesItsTraceContextOrNone() throws FrameFormatException {
        RelayedEnvelope with = relayed("m-1", CONTEXT);
        RelayedEnvelope without = relayed("m-2", null);

        List<Envelope> read = read(concat(record(with), record(without)), FrameCodec.VERSION);

        assertThat(read).containsExactly(with.envelope(), without.envelope());
        // Not part of an envelope's equality: compared here.
        assertThat(read).extracting(Envelope::traceParent).containsExactly(CONTEXT, null);
        assertThat(read).extracting(Envelope::traceText).containsOnly(with.envelope().traceText());
    }

    /** None is one byte (0), a context its length and 25 bytes; the record before it is version 2's unchanged. */
    @Test
    void aRecordWithoutAContextIsTheVersion2RecordAndOneByte() throws FrameFormatException {
        DataFrame old = (DataFrame) FrameCodec.standard().decode(VERSION_2_FRAME);
        // Version, kind, dictionary id, epoch (8), seq 42 (1); the CRC-32C (4) after the block.
        byte[] version2Record = KmtfDictionary.DEFLATE.decompress(VERSION_2_FRAME, 12, VERSION_2_FRAME.length - 16,
                1024);

        byte[] without = record(old.envelopes().getFirst());
        byte[] with = record(new RelayedEnvelope(old.envelopes().getFirst().envelope().withTraceParent(CONTEXT),
                old.envelopes().getFirst().crossed(), old.envelopes().getFirst().boundFor()));

        assertThat(without).hasSize(version2Record.length + 1).startsWith(version2Record).endsWith(0);
        assertThat(with).hasSize(version2Record.length + 1 + TraceParent.BINARY_LENGTH).startsWith(version2Record)
                .endsWith(concat(new byte[] { TraceParent.BINARY_LENGTH }, CONTEXT.toBytes()));
    }

    /** A peer not yet upgraded is still read: its records end with the trace, and its messages have no context. */
    @Test
    void aVersion2FrameStillReads() throws FrameFormatException {
        DataFrame frame = (DataFrame) FrameCodec.standard().decode(VERSION_2_FRAME);

        assertThat(frame.epoch()).isEqualTo(7);
        assertThat(frame.seq()).isEqualTo(42);
        RelayedEnvelope read = frame.envelopes().getFirst();
        assertThat(read).isEqualTo(relayed(GOLDEN_MESSAGE, null));
        assertThat(read.envelope().traceText()).isEqualTo("node node-a sent +3ms; site seoul relayed +17ms");
        assertThat(read.envelope().traceParent()).isNull();
        assertThat(read.crossed()).containsExactly(SiteId.of("seoul"));
        assertThat(read.boundFor()).containsExactly(SiteId.of("busan"));
    }

    /**
     * A context that does not read, ids of all zeros or a length no version-00 context has, costs the message
     * nothing but the context, with one warning naming it; the record after it reads as usual.
     */
    @Test
    void aContextThatDoesNotReadIsLeftOutAndTheMessageDelivered(CapturedOutput output) throws FrameFormatException {
        byte[] zeroIds = record(relayed("m-zero", CONTEXT));
        Arrays.fill(zeroIds, zeroIds.length - TraceParent.BINARY_LENGTH, zeroIds.length - 1, (byte) 0);
        byte[] untraced = record(relayed("m-short", null));
        byte[] shortContext = concat(Arrays.copyOf(untraced, untraced.length - 1), new byte[] { 3, 1, 2, 3 });
        RelayedEnvelope after = relayed("m-after", CONTEXT);

        List<Envelope> read = read(concat(concat(zeroIds, shortContext), record(after)), FrameCodec.VERSION);

        assertThat(read).extracting(Envelope::messageId).containsExactly("m-zero", "m-short", "m-after");
        assertThat(read).extracting(Envelope::traceParent).containsExactly(null, null, CONTEXT);
        assertThat(read.getFirst()).isEqualTo(relayed("m-zero", null).envelope());
        assertThat(read.getFirst().traceText()).isEqualTo("node node-a sent +3ms; site seoul relayed +17ms");
        assertThat(output.getAll().lines().filter(l -> l.contains("WARN") && l.contains("trace context")))
                .satisfiesExactly(l -> assertThat(l).contains("m-zero", "must not be all zeros"),
                        l -> assertThat(l).contains("m-short", "not 3"));
    }

    @Test
    void aRecordCutInItsContextIsTruncated() {
        byte[] traced = record(relayed("m-1", CONTEXT));
        byte[] untraced = record(relayed("m-2", null));

        assertThatThrownBy(() -> read(Arrays.copyOf(traced, traced.length - 1), FrameCodec.VERSION))
                .isInstanceOf(FrameFormatException.class)
                .hasMessage("Frame truncated: trace context needs 25 bytes, 24 left");
        assertThatThrownBy(() -> read(Arrays.copyOf(untraced, untraced.length - 1), FrameCodec.VERSION))
                .isInstanceOf(FrameFormatException.class)
                .hasMessage("Frame truncated: trace context length needs 1 bytes, 0 left");
    }

    /** Through a whole frame, compressed, beside an envelope without one. */
    @Test
    void aDataFrameCarriesTheContexts() throws FrameFormatException {
        List<RelayedEnvelope> envelopes = List.of(relayed("m-1", CONTEXT), relayed("m-2", null));
        FrameCodec codec = FrameCodec.standard();

        byte[] frame = codec.data(1, 2, envelopes);

        assertThat(frame[0]).isEqualTo((byte) FrameCodec.VERSION).isEqualTo((byte) 3);
        assertThat(((DataFrame) codec.decode(frame)).envelopes()).extracting(r -> r.envelope().traceParent())
                .containsExactly(CONTEXT, null);
    }
}

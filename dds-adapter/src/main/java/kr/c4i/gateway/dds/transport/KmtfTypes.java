package kr.c4i.gateway.dds.transport;

import java.util.List;
import java.util.Objects;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.SampleCodec;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.SampleEncoder;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The wire types of {@code src/main/idl/kmtf.idl} as {@link DataType}s, member for member; IdlcDescriptorTest keeps
 * the two in step. Public so that interoperability tools and other transports can publish the same samples.
 */
public final class KmtfTypes {

    /** The IDL enumerators of {@code kmtf::Precedence}, in wire order (append only). */
    public static final List<String> PRECEDENCE_ENUMERATORS = List.of("FLASH", "IMMEDIATE", "PRIORITY", "ROUTINE");

    /** {@code kmtf::KmtfMessage}. */
    public static final DataType<KmtfMessageSample> MESSAGE = DataType.<KmtfMessageSample>builder("kmtf::KmtfMessage")
            .string("message_id")
            .string("origin")
            .string("message_type")
            .enumeration("precedence", PRECEDENCE_ENUMERATORS)
            .string("classification")
            .int64("created_at_ns")
            .uint64("seq")
            .int64("sent_at_ns")
            .octets("body")
            .string("trace")
            .string("traceparent")
            .build(new MessageCodec());

    /** {@code kmtf::KmtfReceipt}. */
    public static final DataType<KmtfReceiptSample> RECEIPT = DataType.<KmtfReceiptSample>builder("kmtf::KmtfReceipt")
            .string("receiver")
            .string("origin")
            .strings("message_ids")
            .build(new ReceiptCodec());

    private KmtfTypes() {
    }

    /**
     * One {@code kmtf::KmtfMessage}. Times are nanoseconds since the epoch; {@code seq} is unsigned on the wire;
     * {@code trace} is the hop trace's text ({@link kr.c4i.gateway.core.HopTrace#format}), empty for none;
     * {@code traceParent} (member {@code traceparent}) is the text of the creation's W3C trace context
     * ({@link kr.c4i.gateway.core.TraceParent}), empty for none, as the writer sent it (unchecked).
     */
    public record KmtfMessageSample(String messageId, String origin, String messageType, Precedence precedence,
            String classification, long createdAtNanos, long seq, long sentAtNanos, byte[] body, String trace,
            String traceParent) {

        public KmtfMessageSample {
            Objects.requireNonNull(precedence, "precedence");
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(trace, "trace");
            Objects.requireNonNull(traceParent, "traceParent");
        }

        /** A sample without a trace context. */
        public KmtfMessageSample(String messageId, String origin, String messageType, Precedence precedence,
                String classification, long createdAtNanos, long seq, long sentAtNanos, byte[] body, String trace) {
            this(messageId, origin, messageType, precedence, classification, createdAtNanos, seq, sentAtNanos, body,
                    trace, "");
        }

        /** A sample without a trace or a trace context. */
        public KmtfMessageSample(String messageId, String origin, String messageType, Precedence precedence,
                String classification, long createdAtNanos, long seq, long sentAtNanos, byte[] body) {
            this(messageId, origin, messageType, precedence, classification, createdAtNanos, seq, sentAtNanos, body,
                    "", "");
        }

        public KmtfMessageSample withSeq(long value) {
            return new KmtfMessageSample(this.messageId, this.origin, this.messageType, this.precedence,
                    this.classification, this.createdAtNanos, value, this.sentAtNanos, this.body, this.trace,
                    this.traceParent);
        }
    }

    /** One {@code kmtf::KmtfReceipt}. */
    public record KmtfReceiptSample(String receiver, String origin, List<String> messageIds) {

        public KmtfReceiptSample {
            messageIds = List.copyOf(messageIds);
        }
    }

    static int wireOrdinal(Precedence precedence) {
        return PRECEDENCE_ENUMERATORS.indexOf(precedence.name());
    }

    private static final class MessageCodec implements SampleCodec<KmtfMessageSample> {

        @Override
        public void encode(KmtfMessageSample sample, SampleEncoder out) {
            out.string(sample.messageId());
            out.string(sample.origin());
            out.string(sample.messageType());
            out.enumerator(wireOrdinal(sample.precedence()));
            out.string(sample.classification());
            out.int64(sample.createdAtNanos());
            out.uint64(sample.seq());
            out.int64(sample.sentAtNanos());
            out.octets(sample.body());
            out.string(sample.trace());
            out.string(sample.traceParent());
        }

        @Override
        public KmtfMessageSample decode(SampleDecoder in) {
            String messageId = in.string();
            String origin = in.string();
            String messageType = in.string();
            Precedence precedence = Precedence.valueOf(PRECEDENCE_ENUMERATORS.get(in.enumerator()));
            String classification = in.string();
            long createdAt = in.int64();
            long seq = in.uint64();
            long sentAt = in.int64();
            byte[] body = in.octets();
            String trace = in.string();
            String traceParent = in.string();
            return new KmtfMessageSample(messageId, origin, messageType, precedence, classification, createdAt, seq,
                    sentAt, body, trace, traceParent);
        }
    }

    private static final class ReceiptCodec implements SampleCodec<KmtfReceiptSample> {

        @Override
        public void encode(KmtfReceiptSample sample, SampleEncoder out) {
            out.string(sample.receiver());
            out.string(sample.origin());
            out.strings(sample.messageIds());
        }

        @Override
        public KmtfReceiptSample decode(SampleDecoder in) {
            return new KmtfReceiptSample(in.string(), in.string(), in.strings());
        }
    }
}

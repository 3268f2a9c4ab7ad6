package kr.c4i.gateway.wan.relay;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.wan.store.ForwardedStep;

/**
 * A forwarded custody step as the envelope it crosses the WAN in: type {@link ForwardedStep#TYPE}, ROUTINE (the
 * lowest precedence: data always goes first), its id {@link ForwardedStep#forwardedAs()}, its origin the node whose
 * messages it names (the relay routes it to that node's site), created when the step was taken. The body is the rest
 * of the step, version {@value #VERSION}: the hop, the row and part, the event, link, precedence, detail, peers and
 * message ids. It names messages and hops, not their content, so it goes unclassified.
 */
public final class CustodyEnvelopes {

    static final int VERSION = 1;

    /** The longest text a field of the body holds, in characters: every field is an id, a label or a short reason. */
    private static final int MAX_FIELD_CHARS = 1024;
    private static final int MAX_PEERS = 64;

    private CustodyEnvelopes() {
    }

    public static Envelope envelope(ForwardedStep step) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128 + 40 * step.messageIds().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(step.hop().value());
            out.writeLong(step.logId());
            out.writeInt(step.part());
            out.writeUTF(step.event());
            optional(out, step.link());
            optional(out, step.precedence());
            optional(out, step.detail());
            out.writeShort(step.peers().size());
            for (String peer : step.peers()) {
                out.writeUTF(peer);
            }
            out.writeShort(step.messageIds().size());
            for (String id : step.messageIds()) {
                out.writeUTF(id);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return new Envelope(step.forwardedAs(), step.origin(), ForwardedStep.TYPE, Precedence.ROUTINE,
                Classification.UNCLASSIFIED.label(), step.at(), bytes.toByteArray());
    }

    /** @throws IllegalArgumentException saying what is wrong with an envelope that is no forwarded step */
    public static ForwardedStep step(Envelope envelope) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(envelope.body()))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("forwarded custody step of version " + version + ", "
                        + VERSION + " known");
            }
            SiteId hop = SiteId.of(field(in));
            long logId = in.readLong();
            int part = in.readInt();
            String event = field(in);
            String link = optional(in);
            String precedence = optional(in);
            String detail = optional(in);
            List<String> peers = new ArrayList<>();
            for (int i = in.readUnsignedShort(); i > 0; i--) {
                peers.add(field(in));
            }
            if (peers.size() > MAX_PEERS) {
                throw new IllegalArgumentException("forwarded custody step names " + peers.size() + " peers");
            }
            List<String> ids = new ArrayList<>();
            for (int i = in.readUnsignedShort(); i > 0; i--) {
                String id = field(in);
                if (id.isBlank() || id.codePointCount(0, id.length()) > Envelope.MAX_MESSAGE_ID_LENGTH) {
                    throw new IllegalArgumentException("forwarded custody step names a blank or overlong message id");
                }
                ids.add(id);
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("forwarded custody step has " + in.available()
                        + " bytes past its end");
            }
            ForwardedStep step = new ForwardedStep(hop, logId, part, envelope.createdAt(), event, peers, link,
                    precedence, detail, envelope.origin(), ids);
            if (!step.forwardedAs().equals(envelope.messageId())) {
                throw new IllegalArgumentException("forwarded custody step " + envelope.messageId()
                        + " does not match its body (" + step.forwardedAs() + ")");
            }
            return step;
        }
        catch (IOException ex) {
            throw new IllegalArgumentException("forwarded custody step cut short: " + ex.getMessage(), ex);
        }
        catch (ArithmeticException ex) {
            throw new IllegalArgumentException("forwarded custody step at a time out of range", ex);
        }
    }

    private static void optional(DataOutputStream out, @Nullable String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static @Nullable String optional(DataInputStream in) throws IOException {
        return in.readBoolean() ? field(in) : null;
    }

    private static String field(DataInputStream in) throws IOException {
        String value = in.readUTF();
        if (value.length() > MAX_FIELD_CHARS || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("forwarded custody step has a field of " + value.length()
                    + " characters or a NUL");
        }
        return value;
    }
}

package kr.c4i.gateway.norm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.norm.internal.Norm;

/**
 * One event from {@link NormInstance#nextEvent}. Its object and sender belong to NORM and are valid only until the
 * next call to {@code nextEvent}: {@link #data} copies a received object's bytes at once.
 */
public final class NormEvent {

    /** {@code NORM_NODE_NONE}: the event concerns no remote sender. */
    public static final int NO_NODE = 0;
    /** The longest info read back; NORM's own bound is one segment, the link's markers take five bytes. */
    private static final int MAX_INFO = 256;

    private final Norm norm;
    private final NormEventType type;
    private final @Nullable NormSession session;
    private final int senderNodeId;
    private final MemorySegment object;

    NormEvent(Norm norm, NormEventType type, @Nullable NormSession session, int senderNodeId, MemorySegment object) {
        this.norm = norm;
        this.type = type;
        this.session = session;
        this.senderNodeId = senderNodeId;
        this.object = object;
    }

    public NormEventType type() {
        return this.type;
    }

    /** The session it happened in; null for an event of a session already closed. */
    public @Nullable NormSession session() {
        return this.session;
    }

    /** The NORM node id of the remote sender it concerns, or {@link #NO_NODE}. */
    public int senderNodeId() {
        return this.senderNodeId;
    }

    /** The object it concerns, as {@link NormSession#enqueue} returned it; 0 for none. */
    public long object() {
        return this.object.address();
    }

    /** Whether a received object carries NORM's out-of-band info (see {@link NormSession#enqueue(byte[], byte[])}). */
    public boolean hasInfo() {
        return !this.object.equals(MemorySegment.NULL) && this.norm.objectHasInfo(this.object);
    }

    /** A copy of a received object's NORM info; empty when it has none. */
    public byte[] info() {
        if (!hasInfo()) {
            return new byte[0];
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buffer = call.allocate(MAX_INFO);
            int length = Short.toUnsignedInt(this.norm.objectGetInfo(this.object, buffer, (short) MAX_INFO));
            return buffer.asSlice(0, Math.min(length, MAX_INFO)).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    /** A copy of a received object's bytes; call it while handling {@link NormEventType#RX_OBJECT_COMPLETED}. */
    public byte[] data() {
        if (this.object.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("A " + this.type + " event has no object");
        }
        long size = this.norm.objectGetSize(this.object);
        MemorySegment data = this.norm.dataAccessData(this.object);
        if (size < 0 || size > Integer.MAX_VALUE - 8 || (size > 0 && data.equals(MemorySegment.NULL))) {
            throw new NormException("NormDataAccessData", "the received object of " + size + " bytes has no data");
        }
        return data.reinterpret(size).toArray(ValueLayout.JAVA_BYTE);
    }

    @Override
    public String toString() {
        return "NormEvent[" + this.type + ", sender " + Integer.toUnsignedString(this.senderNodeId) + ", object 0x"
                + Long.toHexString(this.object.address()) + "]";
    }
}

package kr.c4i.gateway.norm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.norm.internal.Norm;

/**
 * One NORM session, created by {@link NormInstance#createSession}: a sender, a receiver or both, towards one
 * unicast peer or a multicast group. Settings that NORM reads when the sender or receiver starts must be made
 * before {@link #startSender} and {@link #startReceiver}.
 *
 * <p><b>Memory.</b> NORM sends an object's bytes from the caller's buffer without copying, until it purges the
 * object from its cache. {@link #enqueue} copies the frame into a buffer from {@code NormAlloc} that this session
 * owns; the instance frees it when NORM reports the object purged, and {@link #close} frees whatever is left.
 */
public final class NormSession implements AutoCloseable {

    /** The largest {@link #setRxCacheLimit}: object ids are 16 bits, and NORM orders them within half that range. */
    public static final int RX_CACHE_LIMIT_MAX = 16_384;

    /** {@code NormAckingStatus}. */
    public enum AckingStatus {
        INVALID, FAILURE, PENDING, SUCCESS;

        static AckingStatus of(int value) {
            return value >= 0 && value < values().length ? values()[value] : INVALID;
        }
    }

    /** {@code NormSyncPolicy}: which objects a receiver tries to get from a sender it joins. */
    public enum SyncPolicy {
        /** Objects that start after it joined. */
        CURRENT,
        /** From the start of the current stream. */
        STREAM,
        /** Every object the sender still holds: nothing is skipped because its first packets were lost. */
        ALL
    }

    private final Norm norm;
    private final NormInstance instance;
    private final MemorySegment handle;
    private final String address;
    private final int port;
    private final int localNodeId;
    /** Buffers of objects NORM may still send from, by object handle. */
    private final Map<Long, MemorySegment> sending = new ConcurrentHashMap<>();
    private volatile boolean closed;

    NormSession(Norm norm, NormInstance instance, MemorySegment handle, String address, int port, int localNodeId) {
        this.norm = norm;
        this.instance = instance;
        this.handle = handle;
        this.address = address;
        this.port = port;
        this.localNodeId = localNodeId;
    }

    public String address() {
        return this.address;
    }

    public int port() {
        return this.port;
    }

    public int localNodeId() {
        return this.localNodeId;
    }

    long handleAddress() {
        return this.handle.address();
    }

    /**
     * Binds the session's socket to {@code bindAddress} (any when null) with port reuse, and, when
     * {@code senderAddress} is given, connects it to that sender's address and this session's port, so several
     * unicast sessions on one port each hear only their own peer.
     */
    public void bindTo(@Nullable String bindAddress, @Nullable String senderAddress) {
        try (Arena call = Arena.ofConfined()) {
            this.norm.setRxPortReuse(this.handle, true, text(call, bindAddress), text(call, senderAddress),
                    senderAddress == null ? 0 : (short) this.port);
        }
    }

    /**
     * Makes the session a sender only: it opens no receive socket on its port (feedback reaches it on its transmit
     * socket), so several senders to different peers and one receiver can share a port.
     */
    public void setTxOnly() {
        this.norm.setTxOnly(this.handle, true, false);
    }

    /** The interface a multicast session joins its group on and sends from, by name (e.g. {@code eth0}). */
    public void setMulticastInterface(String interfaceName) {
        try (Arena call = Arena.ofConfined()) {
            if (!this.norm.setMulticastInterface(this.handle, call.allocateFrom(interfaceName))) {
                throw new NormException("NormSetMulticastInterface", "interface '" + interfaceName + "'");
            }
        }
    }

    /** How many hops the session's multicast packets may take. */
    public void setTtl(int ttl) {
        if (!this.norm.setTtl(this.handle, (byte) ttl)) {
            throw new NormException("NormSetTTL", "TTL " + ttl);
        }
    }

    /**
     * Whether the session hears its own sender. Off (NORM's default), NORM drops packets with its own node id; the
     * socket's multicast loop stays on, so other sessions on this host still hear the group.
     */
    public void setLoopback(boolean loopback) {
        if (!this.norm.setLoopback(this.handle, loopback) || !this.norm.setMulticastLoopback(this.handle, true)) {
            throw new NormException("NormSetLoopback", "loopback " + loopback);
        }
    }

    /**
     * Asks for one {@link NormEventType#USER_TIMEOUT} event of this session after {@code seconds}: a way to run
     * periodic work on the thread that owns the event queue.
     */
    public void setUserTimer(double seconds) {
        this.norm.setUserTimer(this.handle, seconds);
    }

    /** The fixed transmit rate, in bits of NORM messages per second (IP and UDP headers come on top). */
    public void setTxRate(double bitsPerSecond) {
        this.norm.setTxRate(this.handle, bitsPerSecond);
    }

    /** NORM-CC on or off; off, the sender keeps the rate it was given. */
    public void setCongestionControl(boolean enabled) {
        this.norm.setCongestionControl(this.handle, enabled, true);
    }

    /** How many objects, and bytes, the sender keeps for repair; set before {@link #startSender}. */
    public void setTxCacheBounds(long bytesMax, int countMin, int countMax) {
        this.norm.setTxCacheBounds(this.handle, bytesMax, countMin, countMax);
    }

    /**
     * How many objects a receiver keeps pending per remote sender (NORM's default: 256). An object still waiting for
     * repair when the sender is this many objects further on is aborted and never delivered, so a receiver must cover
     * what its senders may hold in their caches. Set it before {@link #startReceiver}.
     *
     * @param countMax 1 to {@value #RX_CACHE_LIMIT_MAX} (NORM's 16-bit object ids wrap beyond half their range)
     */
    public void setRxCacheLimit(int countMax) {
        if (countMax < 1 || countMax > RX_CACHE_LIMIT_MAX) {
            throw new IllegalArgumentException("A receive cache limit must be 1 to " + RX_CACHE_LIMIT_MAX
                    + " objects, got " + countMax);
        }
        this.norm.setRxCacheLimit(this.handle, (short) countMax);
    }

    /** Parity segments sent with every block before anyone asks. */
    public void setAutoParity(int segments) {
        this.norm.setAutoParity(this.handle, (byte) segments);
    }

    /** The round-trip estimate NORM starts with, in seconds. */
    public void setGrttEstimate(double seconds) {
        this.norm.setGrttEstimate(this.handle, seconds);
    }

    /**
     * NORM's round-trip estimate now, in seconds; 0 once closed. Read by threads other than the session's owner (the
     * gateway's sender for its credit, the health endpoint), so never on a session {@link #close} destroyed.
     */
    public synchronized double grttEstimate() {
        return this.closed ? 0 : this.norm.getGrttEstimate(this.handle);
    }

    /** The NACK back-off factor; 0 for unicast, where no other receiver's NACK can make ours unnecessary. */
    public void setBackoffFactor(double factor) {
        this.norm.setBackoffFactor(this.handle, factor);
    }

    /** NORM's own test hook: drops this percentage of the packets the session sends. */
    public void setTxLoss(double percent) {
        this.norm.setTxLoss(this.handle, percent);
    }

    /** NACKs go straight to the sender rather than to the session's (multicast) address. */
    public void setUnicastNacks(boolean unicast) {
        this.norm.setDefaultUnicastNack(this.handle, unicast);
    }

    public void setSyncPolicy(SyncPolicy policy) {
        this.norm.setDefaultSyncPolicy(this.handle, policy.ordinal());
    }

    /** A receiver whose positive acknowledgement {@link #setWatermark} asks for. */
    public void addAckingNode(int nodeId) {
        if (!this.norm.addAckingNode(this.handle, nodeId)) {
            throw new NormException("NormAddAckingNode", "node " + Integer.toUnsignedString(nodeId));
        }
    }

    /** No longer waits for {@code nodeId}'s acknowledgement of a watermark; nothing when it was not listed. */
    public void removeAckingNode(int nodeId) {
        this.norm.removeAckingNode(this.handle, nodeId);
    }

    /**
     * Starts sending.
     *
     * @param instanceId distinguishes this sender from an earlier one with the same node id (a restart)
     * @param bufferBytes memory for the sender's repair state
     * @param segmentBytes the payload of one NORM data packet
     * @param blockSegments source segments per FEC block
     * @param paritySegments parity segments the encoder may compute per block
     */
    public void startSender(int instanceId, int bufferBytes, int segmentBytes, int blockSegments,
            int paritySegments) {
        if (!this.norm.startSender(this.handle, (short) instanceId, bufferBytes, (short) segmentBytes,
                (short) blockSegments, (short) paritySegments, (byte) 0)) {
            throw new NormException("NormStartSender", "sender to " + this.address + "/" + this.port + " (segments "
                    + segmentBytes + " B, block " + blockSegments + ", parity " + paritySegments
                    + "): the port may be taken");
        }
    }

    /** Starts receiving, with {@code bufferBytes} of memory per remote sender. */
    public void startReceiver(int bufferBytes) {
        if (!this.norm.startReceiver(this.handle, bufferBytes)) {
            throw new NormException("NormStartReceiver", "receiver on " + this.address + "/" + this.port
                    + ": the port may be taken");
        }
    }

    /**
     * Queues one object holding a copy of {@code data}; returns its handle.
     *
     * @throws NormException.QueueFull if the transmit cache is full: wait for {@link NormEventType#TX_QUEUE_VACANCY}
     */
    public long enqueue(byte[] data) {
        return enqueue(data, null);
    }

    /**
     * Queues one object holding a copy of {@code data}, with NORM's out-of-band info ({@code info}, sent with the
     * object's first packets; the receiver sees {@link NormEvent#hasInfo}); returns its handle.
     *
     * @throws NormException.QueueFull if the transmit cache is full: wait for {@link NormEventType#TX_QUEUE_VACANCY}
     */
    public long enqueue(byte[] data, byte @Nullable [] info) {
        if (this.closed) {
            throw new IllegalStateException("The NORM session to " + this.address + " is closed");
        }
        if (data.length == 0) {
            throw new IllegalArgumentException("NORM sends no empty object");
        }
        int infoLength = info == null ? 0 : info.length;
        MemorySegment buffer = this.norm.alloc(data.length + infoLength);
        if (buffer.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("NormAlloc of " + (data.length + infoLength) + " bytes");
        }
        // One buffer, one owner: the info (which NORM copies) sits behind the data.
        buffer = buffer.reinterpret(data.length + infoLength);
        MemorySegment.copy(data, 0, buffer, ValueLayout.JAVA_BYTE, 0, data.length);
        MemorySegment infoPart = MemorySegment.NULL;
        if (info != null) {
            infoPart = buffer.asSlice(data.length, infoLength);
            MemorySegment.copy(info, 0, infoPart, ValueLayout.JAVA_BYTE, 0, infoLength);
        }
        MemorySegment object;
        synchronized (this) {
            object = this.norm.dataEnqueue(this.handle, buffer, data.length, infoPart, infoLength);
            if (!object.equals(MemorySegment.NULL)) {
                // Before the event thread can see it purged: registered under the same lock purged() takes.
                this.sending.put(object.address(), buffer);
            }
        }
        if (object.equals(MemorySegment.NULL)) {
            this.norm.free(buffer);
            throw new NormException.QueueFull("the transmit cache to " + this.address + " is full");
        }
        return object.address();
    }

    /**
     * Stops sending an object NORM still holds and frees its buffer; returns false, doing nothing, for one NORM has
     * purged already. Call it on the thread that owns the event queue, so no purge of it is under way.
     */
    public synchronized boolean cancel(long object) {
        MemorySegment buffer = this.sending.remove(object);
        if (buffer == null) {
            return false;
        }
        // NORM drops the object and any event about it not yet taken, so no purge event follows.
        this.norm.objectCancel(MemorySegment.ofAddress(object));
        this.norm.free(buffer);
        return true;
    }

    /**
     * Sends an object NORM still holds once more, whole, with the auto parity set now (NORM takes its parity as it
     * requeues it); returns false, doing nothing, for one it no longer holds. Call it on the thread that owns the
     * event queue, so no purge of it is under way.
     */
    public synchronized boolean requeue(long object) {
        if (!this.sending.containsKey(object)) {
            return false;
        }
        return this.norm.requeueObject(this.handle, MemorySegment.ofAddress(object));
    }

    /** Drops the watermark being acknowledged, if any. */
    public void cancelWatermark() {
        this.norm.cancelWatermark(this.handle);
    }

    /** Asks the acking nodes to acknowledge everything up to and including {@code object}. */
    public boolean setWatermark(long object) {
        return this.norm.setWatermark(this.handle, MemorySegment.ofAddress(object));
    }

    /** Asks again for the acknowledgement of the current watermark. */
    public boolean resetWatermark() {
        return this.norm.resetWatermark(this.handle);
    }

    public AckingStatus ackingStatus(int nodeId) {
        return AckingStatus.of(this.norm.getAckingStatus(this.handle, nodeId));
    }

    /** Objects whose buffers this session still holds for NORM. */
    public int objectsHeld() {
        return this.sending.size();
    }

    synchronized void purged(MemorySegment object) {
        MemorySegment buffer = this.sending.remove(object.address());
        if (buffer != null) {
            this.norm.free(buffer);
        }
    }

    /** Stops the sender and receiver, destroys the session and frees what it held. Idempotent. */
    @Override
    public synchronized void close() {
        if (this.closed) {
            return;
        }
        this.closed = true;
        this.instance.forget(this);
        this.norm.stopSender(this.handle);
        this.norm.stopReceiver(this.handle);
        this.norm.destroySession(this.handle);
        List.copyOf(this.sending.values()).forEach(this.norm::free);
        this.sending.clear();
    }

    private static MemorySegment text(Arena arena, @Nullable String value) {
        return value == null ? MemorySegment.NULL : arena.allocateFrom(value);
    }

    @Override
    public String toString() {
        return "NormSession[" + this.address + "/" + this.port + ", node " + Integer.toUnsignedString(this.localNodeId)
                + "]";
    }
}

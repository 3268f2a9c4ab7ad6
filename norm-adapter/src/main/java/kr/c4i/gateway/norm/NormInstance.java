package kr.c4i.gateway.norm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.norm.internal.Norm;

/**
 * One NORM instance: NORM's own protocol thread and the event queue of every session created in it. The instance
 * owns its sessions and closes them with itself.
 *
 * <p><b>Threads.</b> One thread owns the event queue and calls {@link #nextEvent}, which blocks; it must be a
 * platform thread (NORM blocks in native code). {@link #stop} releases it from any thread; call {@link #close} once
 * it has returned. Everything else is thread-safe, as NORM's API is.
 *
 * <p><b>Reuse.</b> libnorm 1.5.9 leaks one epoll descriptor per {@code NormDestroyInstance} (measured: one per
 * instance, whether stopped first or not). So a closed instance is stopped, emptied of its sessions and kept; the
 * next {@link #create} restarts it ({@code NormRestartInstance}, which leaks nothing). A process that opens and
 * closes links for ever holds as many NORM instances as it ever had open at once.
 */
public final class NormInstance implements AutoCloseable {

    /** {@code NormEvent}: int type at 0, then session, sender and object handles at 8, 16, 24 (LP64). */
    /** Stopped instances without sessions, by library, for the next {@link #create}. */
    private static final Map<String, Queue<MemorySegment>> IDLE = new ConcurrentHashMap<>();

    private static final StructLayout EVENT = MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("type"),
            MemoryLayout.paddingLayout(4), ValueLayout.ADDRESS.withName("session"),
            ValueLayout.ADDRESS.withName("sender"), ValueLayout.ADDRESS.withName("object"));

    private final Norm norm;
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment event;
    private final Map<Long, NormSession> sessions = new ConcurrentHashMap<>();
    private volatile boolean stopped;
    private boolean closed;

    private NormInstance(Norm norm, MemorySegment handle) {
        this.norm = norm;
        this.handle = handle;
        this.event = this.arena.allocate(EVENT);
    }

    /**
     * Loads libnorm (Debian's {@code libnorm.so.1} when {@code library} is null) and creates an instance.
     *
     * @throws IllegalStateException if the library does not load
     * @throws NormException if NORM cannot create an instance
     */
    public static NormInstance create(@Nullable String library) {
        Norm norm = Norm.load(library);
        Queue<MemorySegment> idle = IDLE.computeIfAbsent(norm.library(), name -> new ConcurrentLinkedQueue<>());
        MemorySegment reused = idle.poll();
        if (reused != null) {
            if (norm.restartInstance(reused)) {
                return new NormInstance(norm, reused);
            }
            norm.destroyInstance(reused);
        }
        MemorySegment handle = norm.createInstance();
        if (handle.equals(MemorySegment.NULL)) {
            throw new NormException("NormCreateInstance", "no instance from " + norm.library());
        }
        return new NormInstance(norm, handle);
    }

    /** The library file this instance's NORM was loaded from. */
    public String library() {
        return this.norm.library();
    }

    /**
     * Creates a session: unicast when {@code address} is a unicast address (then it is the peer's), multicast
     * otherwise. The session binds {@code port} when its sender or receiver starts.
     *
     * @param localNodeId this end's NORM node id, unique among the session's members (not 0 or -1)
     */
    public synchronized NormSession createSession(String address, int port, int localNodeId) {
        if (this.closed) {
            throw new IllegalStateException("The NORM instance is closed");
        }
        if (port <= 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port + " is not a UDP port");
        }
        if (localNodeId == 0 || localNodeId == -1) {
            throw new IllegalArgumentException("node id " + localNodeId + " is reserved by NORM");
        }
        MemorySegment session;
        try (Arena call = Arena.ofConfined()) {
            session = this.norm.createSession(this.handle, call.allocateFrom(address), (short) port, localNodeId);
        }
        if (session.equals(MemorySegment.NULL)) {
            throw new NormException("NormCreateSession", "no session for " + address + "/" + port);
        }
        NormSession created = new NormSession(this.norm, this, session, address, port, localNodeId);
        this.sessions.put(session.address(), created);
        return created;
    }

    /**
     * Waits for the next event of any session. Returns null once {@link #stop} was called (or NORM's thread ended):
     * the caller's loop ends then. The event's object and sender are valid only until the next call.
     */
    public @Nullable NormEvent nextEvent() {
        if (this.stopped || !this.norm.getNextEvent(this.handle, this.event, true)) {
            return null;
        }
        NormEventType type = NormEventType.of(this.event.get(ValueLayout.JAVA_INT, 0));
        MemorySegment session = this.event.get(ValueLayout.ADDRESS, 8);
        MemorySegment sender = this.event.get(ValueLayout.ADDRESS, 16);
        MemorySegment object = this.event.get(ValueLayout.ADDRESS, 24);
        NormSession owner = this.sessions.get(session.address());
        // A closed session's sender handle may be gone: read node ids of live sessions only.
        int senderId = owner == null || sender.equals(MemorySegment.NULL) ? NormEvent.NO_NODE
                : this.norm.nodeGetId(sender);
        if (owner != null && type == NormEventType.TX_OBJECT_PURGED) {
            owner.purged(object);
        }
        return new NormEvent(this.norm, type, owner, senderId, object);
    }

    /** Releases the thread blocked in {@link #nextEvent}, and every later call returns null at once. */
    public void stop() {
        this.stopped = true;
        this.norm.stopInstance(this.handle);
    }

    void forget(NormSession session) {
        this.sessions.remove(session.handleAddress());
    }

    /**
     * Stops the instance and closes its sessions (freeing what they still hold for sending); the emptied instance
     * is kept for the next {@link #create}. Call it after the event thread left {@link #nextEvent}. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (this.closed) {
            return;
        }
        this.closed = true;
        if (!this.stopped) {
            stop();
        }
        List.copyOf(this.sessions.values()).forEach(NormSession::close);
        this.arena.close();
        IDLE.computeIfAbsent(this.norm.library(), name -> new ConcurrentLinkedQueue<>()).add(this.handle);
    }
}

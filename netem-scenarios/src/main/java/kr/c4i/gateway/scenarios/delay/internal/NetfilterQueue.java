package kr.c4i.gateway.scenarios.delay.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The downcall handles of libnetfilter_queue's classic API ({@code nfq_open} ... {@code nfq_set_verdict_batch}) and
 * of libc's {@code poll}, {@code recv} and {@code read} (with {@code errno}). Loaded once for the JVM's life.
 */
public final class NetfilterQueue {

    /** Debian's soname ({@code libnetfilter-queue1}). */
    public static final String LIBRARY = "libnetfilter_queue.so.1";
    /** System property naming another library file or path. */
    public static final String LIBRARY_PROPERTY = "kr.c4i.gateway.scenarios.nfqueue.library";

    /** {@code NFQNL_COPY_META}: the kernel sends the packet's metadata only, not its bytes. */
    public static final byte COPY_META = 1;
    /** {@code NF_DROP}. */
    public static final int NF_DROP = 0;
    /** {@code NF_ACCEPT}. */
    public static final int NF_ACCEPT = 1;
    public static final short POLLIN = 0x1;
    public static final short POLLERR = 0x8;
    public static final short POLLHUP = 0x10;
    public static final int MSG_DONTWAIT = 0x40;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOBUFS = 105;

    /** {@code struct pollfd}. */
    public static final MemoryLayout POLLFD = MemoryLayout.structLayout(JAVA_INT.withName("fd"),
            JAVA_SHORT.withName("events"), JAVA_SHORT.withName("revents"));
    private static final VarHandle POLL_FD = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("fd"));
    private static final VarHandle POLL_EVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("events"));
    private static final VarHandle POLL_REVENTS = POLLFD.varHandle(MemoryLayout.PathElement.groupElement("revents"));

    /** {@code int (*nfq_callback)(struct nfq_q_handle *, struct nfgenmsg *, struct nfq_data *, void *)}. */
    public static final FunctionDescriptor CALLBACK = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
            ADDRESS);

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MemoryLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private final MethodHandle open;
    private final MethodHandle close;
    private final MethodHandle createQueue;
    private final MethodHandle destroyQueue;
    private final MethodHandle setMode;
    private final MethodHandle setQueueMaxlen;
    private final MethodHandle fd;
    private final MethodHandle handlePacket;
    private final MethodHandle getMsgPacketHdr;
    private final MethodHandle setVerdict;
    private final MethodHandle setVerdictBatch;
    private final MethodHandle poll;
    private final MethodHandle recv;
    private final MethodHandle read;
    private final MemorySegment callState = Arena.global().allocate(CALL_STATE);

    private NetfilterQueue(SymbolLookup nfq) {
        open = bind(nfq, "nfq_open", FunctionDescriptor.of(ADDRESS));
        close = bind(nfq, "nfq_close", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createQueue = bind(nfq, "nfq_create_queue", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_SHORT, ADDRESS,
                ADDRESS));
        destroyQueue = bind(nfq, "nfq_destroy_queue", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setMode = bind(nfq, "nfq_set_mode", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT));
        setQueueMaxlen = bind(nfq, "nfq_set_queue_maxlen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        fd = bind(nfq, "nfq_fd", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        handlePacket = bind(nfq, "nfq_handle_packet", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        getMsgPacketHdr = bind(nfq, "nfq_get_msg_packet_hdr", FunctionDescriptor.of(ADDRESS, ADDRESS));
        setVerdict = bind(nfq, "nfq_set_verdict", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
                JAVA_INT, ADDRESS));
        setVerdictBatch = bind(nfq, "nfq_set_verdict_batch", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
                JAVA_INT));
        SymbolLookup libc = LINKER.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        poll = bind(libc, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno);
        recv = bind(libc, "recv", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno);
        read = bind(libc, "read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
    }

    /**
     * Loads the library named by {@value #LIBRARY_PROPERTY}, else {@value #LIBRARY}.
     *
     * @throws IllegalStateException if it does not load or lacks a function, saying which package to install
     */
    public static NetfilterQueue load() {
        String name = System.getProperty(LIBRARY_PROPERTY, LIBRARY);
        try {
            return new NetfilterQueue(SymbolLookup.libraryLookup(name, Arena.global()));
        }
        catch (IllegalArgumentException | IllegalStateException ex) {
            throw new IllegalStateException("Unable to load " + name + " (" + ex.getMessage() + "): install the Debian "
                    + "package libnetfilter-queue1, or set -D" + LIBRARY_PROPERTY + "=/path/to/libnetfilter_queue.so",
                    ex);
        }
    }

    private static MethodHandle bind(SymbolLookup lookup, String name, FunctionDescriptor descriptor,
            Linker.Option... options) {
        MemorySegment address = lookup.find(name).orElseThrow(() -> new IllegalStateException("it lacks " + name));
        return LINKER.downcallHandle(address, descriptor, options);
    }

    /**
     * An upcall stub for {@link #CALLBACK} calling {@code target}, of type
     * {@code (MemorySegment, MemorySegment, MemorySegment, MemorySegment) int}; it must not throw.
     */
    public static MemorySegment callback(MethodHandle target, Arena arena) {
        return LINKER.upcallStub(target, CALLBACK, arena);
    }

    /** The errno of the last {@link #poll}, {@link #recv} or {@link #read} (one thread calls them). */
    public int errno() {
        return (int) ERRNO.get(callState, 0L);
    }

    public MemorySegment open() {
        try {
            return (MemorySegment) open.invokeExact();
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int close(MemorySegment handle) {
        try {
            return (int) close.invokeExact(handle);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public MemorySegment createQueue(MemorySegment handle, short queue, MemorySegment callback) {
        try {
            return (MemorySegment) createQueue.invokeExact(handle, queue, callback, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int destroyQueue(MemorySegment queue) {
        try {
            return (int) destroyQueue.invokeExact(queue);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int setMode(MemorySegment queue, byte mode, int range) {
        try {
            return (int) setMode.invokeExact(queue, mode, range);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int setQueueMaxlen(MemorySegment queue, int length) {
        try {
            return (int) setQueueMaxlen.invokeExact(queue, length);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int fd(MemorySegment handle) {
        try {
            return (int) fd.invokeExact(handle);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int handlePacket(MemorySegment handle, MemorySegment buffer, int length) {
        try {
            return (int) handlePacket.invokeExact(handle, buffer, length);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /**
     * The packet id of a queued packet, from {@code struct nfqnl_msg_packet_hdr} (its first field, network byte
     * order), or -1 if the message has none.
     */
    public long packetId(MemorySegment data) {
        try {
            MemorySegment header = (MemorySegment) getMsgPacketHdr.invokeExact(data);
            if (header.equals(MemorySegment.NULL)) {
                return -1;
            }
            return Integer.toUnsignedLong(header.reinterpret(4).get(JAVA_INT.withOrder(java.nio.ByteOrder.BIG_ENDIAN),
                    0));
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int setVerdict(MemorySegment queue, int id, int verdict) {
        try {
            return (int) setVerdict.invokeExact(queue, id, verdict, 0, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /** The verdict for every packet still queued whose id is at most {@code id}, in the order they came. */
    public int setVerdictBatch(MemorySegment queue, int id, int verdict) {
        try {
            return (int) setVerdictBatch.invokeExact(queue, id, verdict);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int poll(MemorySegment fds, long count, int timeoutMillis) {
        try {
            return (int) poll.invokeExact(callState, fds, count, timeoutMillis);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public long recv(int socket, MemorySegment buffer, int flags) {
        try {
            return (long) recv.invokeExact(callState, socket, buffer, buffer.byteSize(), flags);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public long read(int file, MemorySegment buffer) {
        try {
            return (long) read.invokeExact(callState, file, buffer, buffer.byteSize());
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /** Fills entry {@code i} of a {@link #POLLFD} array. */
    public static void pollEntry(MemorySegment fds, int i, int file, short events) {
        long offset = i * POLLFD.byteSize();
        POLL_FD.set(fds, offset, file);
        POLL_EVENTS.set(fds, offset, events);
        POLL_REVENTS.set(fds, offset, (short) 0);
    }

    /** The events poll reported for entry {@code i}. */
    public static short revents(MemorySegment fds, int i) {
        return (short) POLL_REVENTS.get(fds, i * POLLFD.byteSize());
    }

    private static RuntimeException rethrow(Throwable ex) {
        if (ex instanceof RuntimeException r) {
            throw r;
        }
        if (ex instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(ex);
    }
}

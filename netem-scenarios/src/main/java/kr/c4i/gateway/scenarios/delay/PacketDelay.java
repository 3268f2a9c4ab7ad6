package kr.c4i.gateway.scenarios.delay;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.delay.internal.NetfilterQueue;

/**
 * One NFQUEUE queue whose packets are each held for a fixed delay, then accepted in the order they came. The
 * kernel keeps the packets; this keeps only their ids and due times, in a ring as long as the kernel queue's
 * limit, so memory is bounded: when the queue is full the kernel drops the packet (and counts it in
 * {@code /proc/net/netfilter/nfnetlink_queue}). One thread owns everything: {@link #run} polls the queue's socket
 * and a stop descriptor, hands arriving messages to libnetfilter_queue (whose callback records them) and gives the
 * verdicts when they fall due.
 */
public final class PacketDelay implements AutoCloseable {

    /** Messages read per turn of the loop, so a flood cannot hold back the verdicts that are due. */
    private static final int READS_PER_TURN = 64;
    private static final int BUFFER_BYTES = 65536;

    private final NetfilterQueue nfq;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment handle;
    private final MemorySegment queue;
    private final int socket;
    private final long delayNanos;
    private final long[] ids;
    private final long[] due;
    private int head;
    private int held;
    private long received;
    private long accepted;
    private long dropped;
    private long socketOverflows;
    private int maxHeld;
    private @Nullable Throwable callbackFailure;

    private PacketDelay(NetfilterQueue nfq, int queueNumber, Duration delay, int maxPackets) {
        this.nfq = nfq;
        this.delayNanos = delay.toNanos();
        this.ids = new long[maxPackets];
        this.due = new long[maxPackets];
        this.handle = nfq.open();
        if (handle.equals(MemorySegment.NULL)) {
            arena.close();
            throw new IllegalStateException("nfq_open failed: NFQUEUE needs root (CAP_NET_ADMIN)");
        }
        try {
            MethodHandle onPacket = MethodHandles.lookup().findVirtual(PacketDelay.class, "onPacket",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class,
                            MemorySegment.class)).bindTo(this);
            this.queue = nfq.createQueue(handle, (short) queueNumber, NetfilterQueue.callback(onPacket, arena));
            if (queue.equals(MemorySegment.NULL)) {
                throw new IllegalStateException("nfq_create_queue " + queueNumber + " failed: another process holds "
                        + "that queue in this network namespace");
            }
            if (nfq.setMode(queue, NetfilterQueue.COPY_META, 0) < 0) {
                throw new IllegalStateException("nfq_set_mode failed on queue " + queueNumber);
            }
            if (nfq.setQueueMaxlen(queue, maxPackets) < 0) {
                throw new IllegalStateException("nfq_set_queue_maxlen " + maxPackets + " failed on queue "
                        + queueNumber);
            }
            this.socket = nfq.fd(handle);
        }
        catch (ReflectiveOperationException | RuntimeException ex) {
            nfq.close(handle);
            arena.close();
            throw ex instanceof RuntimeException r ? r : new IllegalStateException(ex);
        }
    }

    /**
     * Binds the queue (packets queued to it before this are dropped by the kernel: no listener).
     *
     * @param maxPackets the kernel queue's limit and this ring's length
     * @throws IllegalStateException if the library is missing, the caller is not root, or the queue is taken
     */
    public static PacketDelay open(int queueNumber, Duration delay, int maxPackets) {
        if (queueNumber < 0 || queueNumber > 65535) {
            throw new IllegalArgumentException("queue number must be 0-65535, was " + queueNumber);
        }
        if (delay.isNegative() || maxPackets < 1) {
            throw new IllegalArgumentException("delay must be >= 0 and the queue at least 1 packet");
        }
        return new PacketDelay(NetfilterQueue.load(), queueNumber, delay, maxPackets);
    }

    /**
     * Delays packets until {@code stopFd} (standard input: the harness's pipe) reaches its end or fails, which it
     * does when the harness closes it or dies.
     */
    public void run(int stopFd) {
        MemorySegment fds = arena.allocate(NetfilterQueue.POLLFD, 2);
        MemorySegment buffer = arena.allocate(BUFFER_BYTES);
        MemorySegment discard = arena.allocate(256);
        NetfilterQueue.pollEntry(fds, 0, socket, NetfilterQueue.POLLIN);
        NetfilterQueue.pollEntry(fds, 1, stopFd, NetfilterQueue.POLLIN);
        while (true) {
            long now = System.nanoTime();
            release(now);
            int timeout = held == 0 ? -1 : (int) Math.min(Integer.MAX_VALUE,
                    Math.ceilDiv(due[head] - now, 1_000_000L));
            int ready = nfq.poll(fds, 2, timeout);
            if (ready < 0) {
                if (nfq.errno() == NetfilterQueue.EINTR) {
                    continue;
                }
                throw new IllegalStateException("poll failed, errno " + nfq.errno());
            }
            if (NetfilterQueue.revents(fds, 1) != 0) {
                long read = nfq.read(stopFd, discard);
                if (read == 0 || read < 0 && nfq.errno() != NetfilterQueue.EINTR) {
                    return;
                }
            }
            if (NetfilterQueue.revents(fds, 0) != 0) {
                receive(buffer);
            }
        }
    }

    private void receive(MemorySegment buffer) {
        for (int i = 0; i < READS_PER_TURN; i++) {
            long length = nfq.recv(socket, buffer, NetfilterQueue.MSG_DONTWAIT);
            if (length < 0) {
                int errno = nfq.errno();
                if (errno == NetfilterQueue.EAGAIN) {
                    return;
                }
                if (errno == NetfilterQueue.ENOBUFS) {
                    // The socket's buffer overflowed: the kernel dropped those packets (user_dropped).
                    socketOverflows++;
                    continue;
                }
                if (errno == NetfilterQueue.EINTR) {
                    continue;
                }
                throw new IllegalStateException("recv on the NFQUEUE socket failed, errno " + errno);
            }
            nfq.handlePacket(handle, buffer, (int) length);
            if (callbackFailure != null) {
                throw new IllegalStateException("The packet callback failed", callbackFailure);
            }
        }
    }

    /** libnetfilter_queue's callback, once per queued packet: note its id and when it falls due. Never throws. */
    @SuppressWarnings("unused")
    private int onPacket(MemorySegment queueHandle, MemorySegment message, MemorySegment data, MemorySegment user) {
        try {
            long id = nfq.packetId(data);
            if (id < 0) {
                return 0;
            }
            received++;
            if (held == ids.length) {
                // Cannot happen while the kernel queue's limit is the ring's length; bounded all the same.
                nfq.setVerdict(queue, (int) id, NetfilterQueue.NF_DROP);
                dropped++;
                return 0;
            }
            int tail = (head + held) % ids.length;
            ids[tail] = id;
            due[tail] = System.nanoTime() + delayNanos;
            held++;
            maxHeld = Math.max(maxHeld, held);
        }
        catch (Throwable ex) {
            callbackFailure = ex;
        }
        return 0;
    }

    /** Accepts every packet due by {@code now} with one batch verdict (it covers every queued id up to the last). */
    private void release(long now) {
        long last = -1;
        while (held > 0 && due[head] - now <= 0) {
            last = ids[head];
            head = (head + 1) % ids.length;
            held--;
            accepted++;
        }
        if (last >= 0 && nfq.setVerdictBatch(queue, (int) last, NetfilterQueue.NF_ACCEPT) < 0) {
            throw new IllegalStateException("nfq_set_verdict_batch failed for packet " + last);
        }
    }

    /** What the queue did, one line. */
    public String summary() {
        return received + " packets queued, " + accepted + " accepted after the delay, " + dropped
                + " dropped by the helper (ring full), " + socketOverflows + " socket overflows, at most " + maxHeld
                + " held at once";
    }

    /** Unbinds the queue: the kernel drops what is still held. */
    @Override
    public void close() {
        nfq.destroyQueue(queue);
        nfq.close(handle);
        arena.close();
    }
}

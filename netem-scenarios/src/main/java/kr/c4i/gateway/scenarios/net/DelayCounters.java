package kr.c4i.gateway.scenarios.net;

/**
 * What the kernel counted for the WAN delay's NFQUEUE queue ({@code /proc/net/netfilter/nfnetlink_queue}).
 *
 * @param queued frames queued since the helper bound the queue (the queue's id sequence)
 * @param queueDropped frames dropped because the queue was full
 * @param userDropped frames dropped because the helper's socket buffer was full
 */
public record DelayCounters(long queued, long queueDropped, long userDropped) {

    public static final DelayCounters ZERO = new DelayCounters(0, 0, 0);

    /** Frames the delay dropped. */
    public long dropped() {
        return queueDropped + userDropped;
    }

    public DelayCounters minus(DelayCounters earlier) {
        return new DelayCounters(queued - earlier.queued, queueDropped - earlier.queueDropped,
                userDropped - earlier.userDropped);
    }

    /**
     * The line of one queue: {@code queue peer_portid queue_total copy_mode copy_range queue_dropped user_dropped
     * id_sequence 1}; zero when the queue is not bound.
     */
    public static DelayCounters parse(String procFile, int queue) {
        for (String line : procFile.lines().toList()) {
            String[] f = line.strip().split("\\s+");
            if (f.length >= 8 && f[0].equals(Integer.toString(queue))) {
                return new DelayCounters(Long.parseLong(f[7]), Long.parseLong(f[5]), Long.parseLong(f[6]));
            }
        }
        return ZERO;
    }
}

package kr.c4i.gateway.scenarios.net;

import org.jspecify.annotations.Nullable;

/**
 * Kernel settings every host namespace gets, beyond the topology's own. Null keeps the kernel's default, which is
 * what a host nobody tuned would have.
 *
 * @param congestionControl TCP congestion control ({@code net.ipv4.tcp_congestion_control}), e.g. bbr or reno
 * @param arpRetryMillis how long a host waits before it asks again for a neighbour's address that did not answer
 *        ({@code net.ipv4.neigh.<if>.retrans_time_ms}; the kernel's default is 1,000 ms). A node that booted while
 *        cut off has such an unanswered request pending when the cut is lifted, and sends nothing unicast until
 *        the next one.
 */
public record HostTuning(@Nullable String congestionControl, @Nullable Integer arpRetryMillis) {

    public static final HostTuning KERNEL_DEFAULTS = new HostTuning(null, null);

    /** The kernel's {@code retrans_time_ms} when nobody sets it. */
    public static final int KERNEL_ARP_RETRY_MILLIS = 1000;

    public HostTuning {
        if (congestionControl != null && !congestionControl.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("Not a TCP congestion control name: '" + congestionControl + "'");
        }
        // The kernel takes at least one jiffy; below 10 ms the host would flood the segment with requests.
        if (arpRetryMillis != null && (arpRetryMillis < 10 || arpRetryMillis > 60_000)) {
            throw new IllegalArgumentException("ARP retry must be 10-60000 ms, was " + arpRetryMillis);
        }
    }
}

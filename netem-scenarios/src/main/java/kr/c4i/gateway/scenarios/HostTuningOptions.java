package kr.c4i.gateway.scenarios;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

import kr.c4i.gateway.scenarios.net.HostTuning;
import kr.c4i.gateway.tools.embedded.OptionValues.PositiveInt;

/** Kernel settings for the hosts, shared by every command that builds or shows the network. */
final class HostTuningOptions {

    @Option(names = "--tcp-cc", description = "TCP congestion control for the hosts (reno, bbr; only what the root "
            + "namespace allows). Default: the kernel's.")
    @Nullable String congestionControl;

    @Option(names = "--arp-retry-ms", paramLabel = "MS", converter = PositiveInt.class,
            description = "How soon a host repeats an unanswered ARP request (net.ipv4.neigh.<if>.retrans_time_ms). "
                    + "Default: the kernel's, 1000.")
    @Nullable Integer arpRetryMillis;

    HostTuning tuning() {
        return new HostTuning(congestionControl, arpRetryMillis);
    }
}

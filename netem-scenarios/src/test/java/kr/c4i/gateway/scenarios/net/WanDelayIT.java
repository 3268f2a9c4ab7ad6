package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.scenarios.Prerequisites;
import kr.c4i.gateway.scenarios.delay.internal.NetfilterQueue;

/**
 * The WAN link's delay in real namespaces: the wan experiment's network, a round trip between the two gateway
 * hosts across the WAN switch without a delay, with 100 ms each way (the helper's NFQUEUE loop), and without it
 * again. Needs root and the tools and library it checks for first; without them the test is skipped and says why, or
 * fails under CI. Takes a few seconds.
 */
class WanDelayIT {

    private static final Duration DELAY = Duration.ofMillis(100);
    /** Scheduling on two busy cores, the helper's millisecond poll and the kernel's hops, both ways. */
    private static final double MARGIN_MS = 60;
    private static final Pattern RTT = Pattern.compile("rtt min/avg/max/mdev = ([\\d.]+)/([\\d.]+)/([\\d.]+)/");

    @Test
    void theWanLinkDelaysEveryFrameBothWaysOnlyWhileADelayIsSet() {
        List<String> problems = EnvironmentCheck.problems();
        Prerequisites.require(problems.isEmpty(), "root with ip, tc, ss, nft, ethtool, sysctl and curl for network "
                + "namespaces and an NFQUEUE rule: " + String.join("; ", problems));
        Prerequisites.require(Prerequisites.onPath("iptables-nft"),
                "iptables-nft, whose NFQUEUE target queues the WAN's frames (apt-get install iptables)");
        Prerequisites.require(Prerequisites.onPath("ping"), "ping, which measures the round trip "
                + "(apt-get install iputils-ping)");
        Prerequisites.require(netfilterQueueLoads(), NetfilterQueue.LIBRARY + ", which the delay helper's loop "
                + "calls (apt-get install libnetfilter-queue1)");
        // A prefix of its own, so it never meets a run or another test's network.
        String prefix = "dl" + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36), 36) + "-";
        WanTopology topology = WanTopology.of(new Topology(prefix, "10.79.0", 6));
        Shell shell = Shell.quiet();
        StringBuilder log = new StringBuilder();
        LinkDelay.Launcher launcher = LinkDelay.Launcher.of(java());
        try (WanNetwork network = WanNetwork.create(topology, shell, ImpairmentBackend.TBF_NFTABLES,
                HostTuning.KERNEL_DEFAULTS, line -> log.append(line).append('\n'))) {
            double[] undelayed = ping(shell, topology);
            assertThat(undelayed[2]).as("max RTT without a delay, ms").isLessThan(MARGIN_MS);

            network.delayWan(DELAY, launcher);
            assertThat(network.wanDelay()).isEqualTo(DELAY);
            double[] delayed = ping(shell, topology);
            double twice = 2.0 * DELAY.toMillis();
            assertThat(delayed[0]).as("min RTT with %s each way, ms; log:%n%s", DELAY, log).isGreaterThanOrEqualTo(twice);
            assertThat(delayed[2]).as("max RTT with %s each way, ms", DELAY).isLessThan(twice + MARGIN_MS);
            DelayCounters counters = network.delayCounters();
            // Echo requests and replies, each queued once on its way across; none dropped.
            assertThat(counters.queued()).isGreaterThanOrEqualTo(2L * PINGS);
            assertThat(counters.dropped()).isZero();

            network.delayWan(Duration.ZERO, launcher);
            assertThat(shell.run(NetworkPlans.pids(topology.wan().switchNamespace())).stdout()).as(
                    "the helper is gone").isBlank();
            assertThat(ping(shell, topology)[2]).as("max RTT after the delay is lifted, ms").isLessThan(MARGIN_MS);
            network.delayWan(DELAY, launcher);
        }
        // Closing with a delay set ends the helper and removes every namespace.
        assertThat(EmulatedNetwork.existingNamespaces(shell, topology.wan())).isEmpty();
        assertThat(EmulatedNetwork.existingNamespaces(shell, topology.site1())).isEmpty();
        assertThat(log.toString()).contains("wan delay helper: READY", "wan delay helper: delay helper: ");
    }

    private static final int PINGS = 5;

    /** min, avg and max RTT in ms of pings from site 1's gateway to site 2's over the WAN. */
    private static double[] ping(Shell shell, WanTopology t) {
        String out = shell.run(ShellCommand.of("ip", "netns", "exec", t.gatewayNamespace(1), "ping", "-n", "-q", "-c",
                Integer.toString(PINGS), "-i", "0.2", "-W", "2", t.gatewayWanAddress(2))).stdout();
        Matcher m = RTT.matcher(out);
        assertThat(m.find()).as("ping output: %s", out).isTrue();
        assertThat(out).as("ping output").contains(PINGS + " received");
        return new double[] { Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3)) };
    }

    /** Loaded here as the helper's JVM loads it, so a missing library is named before any namespace exists. */
    private static boolean netfilterQueueLoads() {
        try {
            NetfilterQueue.load();
            return true;
        }
        catch (IllegalStateException ex) {
            return false;
        }
    }

    private static Path java() {
        String configured = System.getProperty("scenarios.java");
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("java.home"), "bin", "java");
    }
}

package kr.c4i.gateway.scenarios.net;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pure functions from a {@link WanTopology} to the commands that build, impair, cut and remove its WAN link. The
 * sites themselves are built by {@link NetworkPlans#create} like any topology. The WAN link is impaired exactly as
 * a host link is ({@link NetworkPlans#shape}): a shaper at both ends of each gateway's WAN interface, and the
 * random drop on the WAN switch's ingress ports, one decision per frame a gateway sends.
 */
public final class WanPlans {

    /** The WAN delay's NFQUEUE queue (queues are per namespace: the WAN switch's own). */
    public static final int DELAY_QUEUE = 0;

    /** The delay helper's main class, run with the harness's own class path. */
    static final String DELAY_HELPER = "kr.c4i.gateway.scenarios.delay.DelayHelper";

    private WanPlans() {
    }

    /**
     * The WAN switch (a bridge like the sites') and a veth pair from each site's gateway host ({@code wan0}, the
     * WAN address) to its port. Run after both sites exist.
     */
    public static List<ShellCommand> create(WanTopology t) {
        Topology wan = t.wan();
        String sw = wan.switchNamespace();
        List<ShellCommand> plan = new ArrayList<>();
        plan.add(ShellCommand.of("ip", "netns", "add", sw));
        plan.add(NetworkPlans.ipv6Off(sw));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", "lo", "up"));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "add", wan.bridge(), "type", "bridge", "stp_state", "0",
                "forward_delay", "0", "mcast_snooping", "0"));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", wan.bridge(), "up"));
        for (int site = 1; site <= 2; site++) {
            String ns = t.gatewayNamespace(site);
            String port = t.wanPort(site);
            plan.add(ShellCommand.of("ip", "link", "add", WanTopology.WAN_INTERFACE, "netns", ns, "type", "veth",
                    "peer", "name", port, "netns", sw));
            plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", port, "master", wan.bridge()));
            plan.add(NetworkPlans.ethtool(sw, port));
            plan.add(NetworkPlans.ethtool(ns, WanTopology.WAN_INTERFACE));
            plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", port, "up"));
            plan.add(ShellCommand.of("ip", "-n", ns, "addr", "add", wan.hostCidr(site), "dev",
                    WanTopology.WAN_INTERFACE));
            plan.add(ShellCommand.of("ip", "-n", ns, "link", "set", WanTopology.WAN_INTERFACE, "up"));
        }
        return plan;
    }

    /** Removes the WAN switch; its veth pairs, hence the gateways' {@code wan0}, go with it. */
    public static List<ShellCommand> destroy(WanTopology t) {
        return List.of(ShellCommand.of("ip", "netns", "del", t.wan().switchNamespace()).tolerant());
    }

    /** Impairs the WAN link: both gateways' {@code wan0} and both WAN switch ports, and the loss rule per port. */
    public static List<ShellCommand> shape(WanTopology t, ImpairmentBackend backend, LinkShape shape) {
        List<ShellCommand> plan = new ArrayList<>(unshape(t));
        String sw = t.wan().switchNamespace();
        for (int site = 1; site <= 2; site++) {
            String ns = t.gatewayNamespace(site);
            switch (backend) {
                case NETEM -> {
                    plan.add(NetworkPlans.netem(ns, WanTopology.WAN_INTERFACE, shape, true));
                    plan.add(NetworkPlans.netem(sw, t.wanPort(site), shape, false));
                }
                case TBF_NFTABLES -> {
                    plan.add(NetworkPlans.tbf(ns, WanTopology.WAN_INTERFACE, shape));
                    plan.add(NetworkPlans.tbf(sw, t.wanPort(site), shape));
                }
            }
        }
        if (backend == ImpairmentBackend.TBF_NFTABLES && shape.lossPerMille() > 0) {
            plan.add(ShellCommand.of("ip", "netns", "exec", sw, "nft", "-f", "-").withStdin(
                    NetworkPlans.lossRuleset(t.wan(), Map.of(1, shape.lossPerMille(), 2, shape.lossPerMille()))));
        }
        return plan;
    }

    /** Removes every impairment from the WAN link. */
    public static List<ShellCommand> unshape(WanTopology t) {
        List<ShellCommand> plan = new ArrayList<>();
        for (int site = 1; site <= 2; site++) {
            plan.add(ShellCommand.of("ip", "netns", "exec", t.gatewayNamespace(site), "tc", "qdisc", "del", "dev",
                    WanTopology.WAN_INTERFACE, "root").tolerant());
            plan.add(ShellCommand.of("ip", "netns", "exec", t.wan().switchNamespace(), "tc", "qdisc", "del", "dev",
                    t.wanPort(site), "root").tolerant());
        }
        plan.add(NetworkPlans.dropLossTable(t.wan()));
        return plan;
    }

    /** The WAN outage: the WAN switch drops everything from and to site 1's gateway (both directions). */
    public static ShellCommand cut(WanTopology t) {
        return NetworkPlans.cut(t.wan(), 1);
    }

    public static ShellCommand uncut(WanTopology t) {
        return NetworkPlans.uncut(t.wan(), 1);
    }

    /**
     * Queues every IPv4 frame the WAN switch forwards, both directions, to the delay helper: bridged frames pass
     * iptables' FORWARD hook (br_netfilter; nftables of this kernel has no queue statement, its iptables-nft target
     * has), after the cut's bridge chain and the loss rule. ARP is not delayed. No bypass: if the helper is gone,
     * the WAN carries nothing rather than carrying frames undelayed. Run once the helper has bound the queue.
     */
    public static List<ShellCommand> delayOn(WanTopology t) {
        String sw = t.wan().switchNamespace();
        return List.of(ShellCommand.of("ip", "netns", "exec", sw, "sysctl", "-qw", "net.bridge.bridge-nf-call-iptables=1"),
                ShellCommand.of("ip", "netns", "exec", sw, "iptables-nft", "-A", "FORWARD", "-j", "NFQUEUE",
                        "--queue-num", Integer.toString(DELAY_QUEUE)));
    }

    /** Lifts {@link #delayOn}: the WAN forwards frames at once again. */
    public static ShellCommand delayOff(WanTopology t) {
        return ShellCommand.of("ip", "netns", "exec", t.wan().switchNamespace(), "iptables-nft", "-D", "FORWARD", "-j",
                "NFQUEUE", "--queue-num", Integer.toString(DELAY_QUEUE)).tolerant();
    }

    /**
     * An HTTP GET of a path on a site's gateway host at {@code 127.0.0.1:port}, where the gateway's management
     * endpoints listen: curl in the host's namespace, failing on an HTTP error. The credential goes in curl's
     * configuration on standard input, not on the command line, which any process of the machine may read.
     *
     * @param path e.g. {@code /actuator/prometheus}
     */
    public static ShellCommand gatewayHttpGet(WanTopology t, int site, int port, String path, String user,
            String password) {
        return NetworkPlans.httpGet(t.gatewayNamespace(site), port, path, user, password);
    }

    /** The WAN switch's NFQUEUE counters (see {@link DelayCounters#parse}). */
    public static ShellCommand delayCounters(WanTopology t) {
        return ShellCommand.of("ip", "netns", "exec", t.wan().switchNamespace(), "cat",
                "/proc/net/netfilter/nfnetlink_queue");
    }

    /**
     * The delay helper's command line: a small JVM in the WAN switch's namespace, holding every queued frame for
     * {@code delay}, at most {@code maxPackets} at once.
     *
     * @param java a Java 22 or later (foreign functions)
     * @param classPath a class path with the harness's classes and picocli
     */
    public static ShellCommand delayHelper(WanTopology t, Duration delay, int maxPackets, Path java, String classPath) {
        return ShellCommand.of("ip", "netns", "exec", t.wan().switchNamespace(), java.toString(), "-Xmx32m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp", classPath,
                DELAY_HELPER, "--queue", Integer.toString(DELAY_QUEUE), "--delay-ms", Long.toString(delay.toMillis()),
                "--max-packets", Integer.toString(maxPackets));
    }
}

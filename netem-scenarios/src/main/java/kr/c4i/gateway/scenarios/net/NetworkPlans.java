package kr.c4i.gateway.scenarios.net;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Pure functions from a topology (and an impairment) to the {@code ip}, {@code tc}, {@code nft}, {@code ethtool}
 * and {@code ss} command lines that build, impair, cut and remove the emulated network. Nothing here runs
 * anything; {@link EmulatedNetwork} does.
 */
public final class NetworkPlans {

    /** Offloads off, so frames on the wire are what the stack sent and counters count real frames. */
    private static final List<String> OFFLOADS_OFF = List.of("tso", "off", "gso", "off", "gro", "off");

    private NetworkPlans() {
    }

    /**
     * Creates the switch (a bridge without STP, forwarding delay or IGMP snooping, so multicast is flooded from
     * the first frame) and every host: loopback up, IPv6 off, a veth pair to the bridge, offloads off, its
     * address, and the multicast route.
     *
     * @param tuning kernel settings for every host
     */
    public static List<ShellCommand> create(Topology t, HostTuning tuning) {
        List<ShellCommand> plan = new ArrayList<>();
        String sw = t.switchNamespace();
        plan.add(ShellCommand.of("ip", "netns", "add", sw));
        plan.add(ipv6Off(sw));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", "lo", "up"));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "add", t.bridge(), "type", "bridge", "stp_state", "0",
                "forward_delay", "0", "mcast_snooping", "0"));
        plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", t.bridge(), "up"));
        for (int host : t.hostIndexes()) {
            String ns = t.hostNamespace(host);
            String port = t.switchPort(host);
            String eth = t.hostInterface();
            plan.add(ShellCommand.of("ip", "netns", "add", ns));
            plan.add(ipv6Off(ns));
            plan.add(ShellCommand.of("ip", "-n", ns, "link", "set", "lo", "up"));
            plan.add(ShellCommand.of("ip", "link", "add", eth, "netns", ns, "type", "veth", "peer", "name", port,
                    "netns", sw));
            plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", port, "master", t.bridge()));
            plan.add(ethtool(sw, port));
            plan.add(ethtool(ns, eth));
            plan.add(ShellCommand.of("ip", "-n", sw, "link", "set", port, "up"));
            plan.add(ShellCommand.of("ip", "-n", ns, "addr", "add", t.hostCidr(host), "dev", eth));
            plan.add(ShellCommand.of("ip", "-n", ns, "link", "set", eth, "up"));
            plan.add(ShellCommand.of("ip", "-n", ns, "route", "add", Topology.MULTICAST_ROUTE, "dev", eth));
            if (tuning.congestionControl() != null) {
                plan.add(ShellCommand.of("ip", "netns", "exec", ns, "sysctl", "-qw",
                        "net.ipv4.tcp_congestion_control=" + tuning.congestionControl()));
            }
            if (tuning.arpRetryMillis() != null) {
                plan.add(ShellCommand.of("ip", "netns", "exec", ns, "sysctl", "-qw",
                        arpRetryKey(t) + "=" + tuning.arpRetryMillis()));
            }
        }
        return plan;
    }

    /**
     * Removes every namespace; deleting the switch namespace removes the bridge and the veth pairs. Processes in
     * the namespaces must be gone first ({@link EmulatedNetwork} kills them by the namespaces' pid lists).
     */
    public static List<ShellCommand> destroy(Topology t) {
        List<ShellCommand> plan = new ArrayList<>();
        for (int host : t.hostIndexes()) {
            plan.add(ShellCommand.of("ip", "netns", "del", t.hostNamespace(host)).tolerant());
        }
        plan.add(ShellCommand.of("ip", "netns", "del", t.switchNamespace()).tolerant());
        return plan;
    }

    /**
     * Impairs the given hosts' links. With netem, one qdisc per end; otherwise TBF on both ends and one nftables
     * table holding a random-drop chain per host port (replacing any earlier loss table).
     */
    public static List<ShellCommand> shape(Topology t, ImpairmentBackend backend, Collection<Integer> hosts,
            LinkShape shape) {
        List<ShellCommand> plan = new ArrayList<>();
        for (int host : hosts) {
            String ns = t.hostNamespace(host);
            String sw = t.switchNamespace();
            switch (backend) {
                case NETEM -> {
                    plan.add(netem(ns, t.hostInterface(), shape, true));
                    plan.add(netem(sw, t.switchPort(host), shape, false));
                }
                case TBF_NFTABLES -> {
                    plan.add(tbf(ns, t.hostInterface(), shape));
                    plan.add(tbf(sw, t.switchPort(host), shape));
                }
            }
        }
        if (backend == ImpairmentBackend.TBF_NFTABLES) {
            plan.add(dropLossTable(t));
            if (shape.lossPerMille() > 0) {
                SortedMap<Integer, Integer> loss = new TreeMap<>();
                hosts.forEach(h -> loss.put(h, shape.lossPerMille()));
                plan.add(ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "nft", "-f", "-")
                        .withStdin(lossRuleset(t, loss)));
            }
        }
        return plan;
    }

    /** Removes every impairment from the given hosts' links. */
    public static List<ShellCommand> unshape(Topology t, Collection<Integer> hosts) {
        List<ShellCommand> plan = new ArrayList<>();
        for (int host : hosts) {
            plan.add(ShellCommand.of("ip", "netns", "exec", t.hostNamespace(host), "tc", "qdisc", "del", "dev",
                    t.hostInterface(), "root").tolerant());
            plan.add(ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "tc", "qdisc", "del", "dev",
                    t.switchPort(host), "root").tolerant());
        }
        plan.add(dropLossTable(t));
        return plan;
    }

    /**
     * The nftables script for random loss: per host port a netdev ingress chain that lets ARP through, counts
     * every other frame ({@code seen}) and drops a random share of them ({@code dropped}).
     *
     * @param perMilleByHost loss per host in thousandths
     */
    public static String lossRuleset(Topology t, Map<Integer, Integer> perMilleByHost) {
        StringBuilder nft = new StringBuilder();
        nft.append("table netdev ").append(lossTable(t)).append(" {\n");
        perMilleByHost.forEach((host, perMille) -> {
            String port = t.switchPort(host);
            nft.append("  chain ").append(port).append(" {\n");
            nft.append("    type filter hook ingress device \"").append(port).append("\" priority 0; policy accept;\n");
            nft.append("    ether type arp accept\n");
            nft.append("    counter comment \"seen\"\n");
            nft.append("    numgen random mod 1000 < ").append(perMille).append(" counter drop comment \"dropped\"\n");
            nft.append("  }\n");
        });
        nft.append("}\n");
        return nft.toString();
    }

    /** Reads the loss table's counters as JSON (see {@link PortCounters#parseLossCounters}). */
    public static ShellCommand lossCounters(Topology t) {
        return ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "nft", "-j", "list", "table", "netdev",
                lossTable(t)).tolerant();
    }

    public static String lossTable(Topology t) {
        return t.nftPrefix() + "loss";
    }

    /**
     * Cuts a host off the switch, both ways and everything (ARP included): a bridge forward chain dropping
     * frames from and to its port. The peers see nothing, as if it had lost power.
     */
    public static ShellCommand cut(Topology t, int host) {
        String port = t.switchPort(host);
        String script = "table bridge " + cutTable(t, host) + " {\n"
                + "  chain forward {\n"
                + "    type filter hook forward priority -10; policy accept;\n"
                + "    iifname \"" + port + "\" drop\n"
                + "    oifname \"" + port + "\" drop\n"
                + "  }\n"
                + "}\n";
        return ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "nft", "-f", "-").withStdin(script);
    }

    /** Lifts a {@link #cut}. */
    public static ShellCommand uncut(Topology t, int host) {
        return ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "nft", "delete", "table", "bridge",
                cutTable(t, host)).tolerant();
    }

    public static String cutTable(Topology t, int host) {
        return t.nftPrefix() + "cut_h" + host;
    }

    /**
     * After every process of a stopped host is killed: drop what the kernel still holds for it, its sockets
     * (TIME_WAIT, orphans) and its neighbour cache, so the restarted node starts from nothing.
     */
    public static List<ShellCommand> forget(Topology t, int host) {
        String ns = t.hostNamespace(host);
        return List.of(ShellCommand.of("ip", "netns", "exec", ns, "ss", "-K", "-a", "-t", "-u").tolerant(),
                ShellCommand.of("ip", "-n", ns, "neigh", "flush", "all").tolerant());
    }

    /**
     * Drops the host's TCP connections to a peer and its cached TCP metrics, so that the next measurement does not
     * inherit a congestion window or a pacing rate learnt on an earlier cell's impaired link. The transports
     * reconnect by themselves (JMS bridges retry within their retry interval).
     */
    public static List<ShellCommand> resetTcp(Topology t, int host, int peer) {
        String ns = t.hostNamespace(host);
        return List.of(ShellCommand.of("ip", "netns", "exec", ns, "ss", "-K", "dst", t.hostAddress(peer)).tolerant(),
                ShellCommand.of("ip", "-n", ns, "tcp_metrics", "flush", "all").tolerant());
    }

    /** Every switch port's counters as JSON (see {@link PortCounters#parse}). */
    public static ShellCommand switchCounters(Topology t) {
        return ShellCommand.of("ip", "-n", t.switchNamespace(), "-s", "-j", "link", "show");
    }

    /**
     * An HTTP GET of a path on a host at {@code 127.0.0.1:port}, where its node's management endpoints listen: see
     * {@link #httpGet}.
     *
     * @param path e.g. {@code /actuator/health/transport}
     */
    public static ShellCommand hostHttpGet(Topology t, int host, int port, String path, String user,
            String password) {
        return httpGet(t.hostNamespace(host), port, path, user, password);
    }

    /**
     * curl in a namespace, failing on an HTTP error. The credential goes in curl's configuration on standard input,
     * not on the command line, which any process of the machine may read.
     */
    static ShellCommand httpGet(String namespace, int port, String path, String user, String password) {
        return ShellCommand.of("ip", "netns", "exec", namespace, "curl", "--silent", "--show-error", "--fail",
                "--max-time", "10", "--config", "-", "http://127.0.0.1:" + port + path)
                .withSecretStdin("user = \"" + curlQuoted(user + ":" + password) + "\"\n");
    }

    /** Text inside a double-quoted string of a curl configuration: backslash and quote escaped. */
    static String curlQuoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** The process ids in a namespace. */
    public static ShellCommand pids(String namespace) {
        return ShellCommand.of("ip", "netns", "pids", namespace).tolerant();
    }

    public static ShellCommand congestionControl(Topology t, int host) {
        return ShellCommand.of("ip", "netns", "exec", t.hostNamespace(host), "sysctl", "-n",
                "net.ipv4.tcp_congestion_control");
    }

    public static ShellCommand arpRetry(Topology t, int host) {
        return ShellCommand.of("ip", "netns", "exec", t.hostNamespace(host), "sysctl", "-n", arpRetryKey(t));
    }

    private static String arpRetryKey(Topology t) {
        return "net.ipv4.neigh." + t.hostInterface() + ".retrans_time_ms";
    }

    /**
     * Whether this kernel has sch_netem: try to load it, then add a netem qdisc to loopback in a throw-away
     * namespace. Run {@link #netemProbeCleanup} afterwards whatever happened.
     */
    public static List<ShellCommand> netemProbe(Topology t) {
        String ns = probeNamespace(t);
        return List.of(ShellCommand.of("modprobe", "-q", "sch_netem").tolerant(),
                ShellCommand.of("ip", "netns", "add", ns),
                ShellCommand.of("ip", "-n", ns, "link", "set", "lo", "up"),
                ShellCommand.of("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "lo", "root", "netem", "loss",
                        "1%"));
    }

    public static ShellCommand netemProbeCleanup(Topology t) {
        return ShellCommand.of("ip", "netns", "del", probeNamespace(t)).tolerant();
    }

    static String probeNamespace(Topology t) {
        return t.prefix() + "probe";
    }

    static ShellCommand dropLossTable(Topology t) {
        return ShellCommand.of("ip", "netns", "exec", t.switchNamespace(), "nft", "delete", "table", "netdev",
                lossTable(t)).tolerant();
    }

    /**
     * IPv6 off (no ND/MLD noise in the byte counts) and no cached TCP metrics: every connection starts from the
     * kernel's defaults, not from what an earlier cell's slow link taught it.
     */
    static ShellCommand ipv6Off(String ns) {
        return ShellCommand.of("ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                "net.ipv6.conf.default.disable_ipv6=1", "net.ipv4.tcp_no_metrics_save=1");
    }

    static ShellCommand ethtool(String ns, String dev) {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", ns, "ethtool", "-K", dev));
        argv.addAll(OFFLOADS_OFF);
        return new ShellCommand(argv, null, false);
    }

    static ShellCommand tbf(String ns, String dev, LinkShape shape) {
        return ShellCommand.of("ip", "netns", "exec", ns, "tc", "qdisc", "replace", "dev", dev, "root", "tbf", "rate",
                shape.rate().tc(), "burst", Long.toString(shape.burstBytes()), "limit",
                Long.toString(shape.limitBytes()));
    }

    static ShellCommand netem(String ns, String dev, LinkShape shape, boolean withLoss) {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", ns, "tc", "qdisc", "replace", "dev", dev,
                "root", "netem", "rate", shape.rate().tc()));
        if (withLoss && shape.lossPerMille() > 0) {
            argv.addAll(List.of("loss", shape.lossPercent()));
        }
        argv.addAll(List.of("limit", Integer.toString(shape.queuePackets())));
        return new ShellCommand(argv, null, false);
    }
}

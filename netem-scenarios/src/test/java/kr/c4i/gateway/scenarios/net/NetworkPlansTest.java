package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class NetworkPlansTest {

    private final Topology topology = new Topology("c4g-", "10.77.0", 6);

    @Test
    void createBuildsABridgeWithoutStpDelayOrSnoopingInItsOwnNamespace() {
        List<String> lines = lines(NetworkPlans.create(topology, HostTuning.KERNEL_DEFAULTS));
        assertThat(lines.getFirst()).isEqualTo("ip netns add c4g-sw");
        assertThat(lines).contains(
                "ip -n c4g-sw link add br0 type bridge stp_state 0 forward_delay 0 mcast_snooping 0",
                "ip -n c4g-sw link set br0 up");
    }

    @Test
    void createAttachesEveryHostByAVethPairWithAddressMulticastRouteAndNoIpv6OrOffloads() {
        List<String> lines = lines(NetworkPlans.create(topology, HostTuning.KERNEL_DEFAULTS));
        for (int h = 1; h <= 6; h++) {
            assertThat(lines).contains("ip netns add c4g-h" + h,
                    "ip netns exec c4g-h" + h + " sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 net.ipv4.tcp_no_metrics_save=1",
                    "ip -n c4g-h" + h + " link set lo up",
                    "ip link add eth0 netns c4g-h" + h + " type veth peer name p" + h + " netns c4g-sw",
                    "ip -n c4g-sw link set p" + h + " master br0",
                    "ip netns exec c4g-sw ethtool -K p" + h + " tso off gso off gro off",
                    "ip netns exec c4g-h" + h + " ethtool -K eth0 tso off gso off gro off",
                    "ip -n c4g-h" + h + " addr add 10.77.0." + h + "/24 dev eth0",
                    "ip -n c4g-h" + h + " route add 224.0.0.0/4 dev eth0");
            // IPv6 goes off before the interface exists, so it never gets a link-local address.
            assertThat(lines.indexOf("ip netns exec c4g-h" + h
                    + " sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 net.ipv4.tcp_no_metrics_save=1"))
                    .isLessThan(lines.indexOf("ip link add eth0 netns c4g-h" + h + " type veth peer name p" + h
                            + " netns c4g-sw"));
        }
        assertThat(lines).noneMatch(l -> l.contains("tcp_congestion_control") || l.contains("retrans_time_ms"));
    }

    @Test
    void createSelectsTheCongestionControlAndArpRetryWhenAsked() {
        List<String> lines = lines(NetworkPlans.create(topology, new HostTuning("reno", 100)));
        assertThat(lines).contains("ip netns exec c4g-h3 sysctl -qw net.ipv4.tcp_congestion_control=reno",
                "ip netns exec c4g-h3 sysctl -qw net.ipv4.neigh.eth0.retrans_time_ms=100");
        // The per-interface setting needs the interface to exist.
        assertThat(lines.indexOf("ip netns exec c4g-h3 sysctl -qw net.ipv4.neigh.eth0.retrans_time_ms=100"))
                .isGreaterThan(lines.indexOf("ip link add eth0 netns c4g-h3 type veth peer name p3 netns c4g-sw"));
    }

    @Test
    void hostTuningRefusesWhatTheKernelWouldMisread() {
        assertThatIllegalArgumentException().isThrownBy(() -> new HostTuning(null, 5))
                .withMessageContaining("10-60000");
        assertThatIllegalArgumentException().isThrownBy(() -> new HostTuning("bbr; reboot", null))
                .withMessageContaining("congestion control");
    }

    @Test
    void everyCommandStaysInsideTheTopologysOwnNamespaces() {
        LinkShape shape = new LinkShape(Rate.KBIT_128, 0.3, 50);
        List<ShellCommand> all = new java.util.ArrayList<>(NetworkPlans.create(topology, new HostTuning("bbr", 200)));
        all.addAll(NetworkPlans.shape(topology, ImpairmentBackend.TBF_NFTABLES, topology.hostIndexes(), shape));
        all.addAll(NetworkPlans.shape(topology, ImpairmentBackend.NETEM, topology.hostIndexes(), shape));
        all.addAll(NetworkPlans.unshape(topology, topology.hostIndexes()));
        all.add(NetworkPlans.cut(topology, 2));
        all.add(NetworkPlans.uncut(topology, 2));
        all.addAll(NetworkPlans.forget(topology, 2));
        all.addAll(NetworkPlans.resetTcp(topology, 1, 2));
        all.addAll(NetworkPlans.destroy(topology));
        for (ShellCommand c : all) {
            List<String> argv = c.argv();
            List<String> namespaces = new java.util.ArrayList<>();
            for (int i = 0; i < argv.size() - 1; i++) {
                if (argv.get(i).equals("-n")) {
                    namespaces.add(argv.get(i + 1));
                }
                if (argv.get(i).equals("netns")) {
                    String next = argv.get(i + 1);
                    namespaces.add(List.of("add", "del", "exec", "pids").contains(next) ? argv.get(i + 2) : next);
                }
            }
            assertThat(argv.getFirst()).as(c.display()).isEqualTo("ip");
            assertThat(namespaces).as(c.display()).isNotEmpty().allMatch(ns -> ns.startsWith("c4g-"));
        }
    }

    @Test
    void aNodesManagementEndpointIsReadInItsHostWithTheCredentialOnStandardInputOnly() {
        ShellCommand get = NetworkPlans.hostHttpGet(topology, 2, 8080, "/actuator/health/transport", "user",
                "pa\"ss\\word");
        assertThat(get.argv()).containsExactly("ip", "netns", "exec", "c4g-h2", "curl", "--silent", "--show-error",
                "--fail", "--max-time", "10", "--config", "-", "http://127.0.0.1:8080/actuator/health/transport");
        assertThat(get.stdin()).isEqualTo("user = \"user:pa\\\"ss\\\\word\"\n");
        assertThat(get.mayFail()).isFalse();
        assertThat(get.display()).doesNotContain("word");
    }

    @Test
    void destroyRemovesHostsThenTheSwitchAndToleratesWhatIsAlreadyGone() {
        List<ShellCommand> plan = NetworkPlans.destroy(topology);
        assertThat(plan).hasSize(7).allMatch(ShellCommand::mayFail);
        assertThat(plan.getLast().display()).isEqualTo("ip netns del c4g-sw || true");
    }

    @Test
    void tbfShapesBothEndsOfEachLinkWithABurstOfFourMillisecondsAndTheQueueInBytes() {
        LinkShape shape = new LinkShape(Rate.MBIT_2, 0, 50);
        List<String> lines = lines(NetworkPlans.shape(topology, ImpairmentBackend.TBF_NFTABLES, List.of(1, 2), shape));
        assertThat(lines).contains(
                "ip netns exec c4g-h1 tc qdisc replace dev eth0 root tbf rate 2000000bit burst 1600 limit 75700",
                "ip netns exec c4g-sw tc qdisc replace dev p1 root tbf rate 2000000bit burst 1600 limit 75700",
                "ip netns exec c4g-h2 tc qdisc replace dev eth0 root tbf rate 2000000bit burst 1600 limit 75700",
                "ip netns exec c4g-sw tc qdisc replace dev p2 root tbf rate 2000000bit burst 1600 limit 75700");
        // Without loss the old loss table goes and no new one comes.
        assertThat(lines).contains("ip netns exec c4g-sw nft delete table netdev c4g_loss || true")
                .noneMatch(l -> l.contains("nft -f -"));
    }

    @Test
    void lossIsOneRandomDropPerFrameAtTheSendersSwitchPortWithArpExempt() {
        LinkShape shape = new LinkShape(Rate.KBIT_256, 0.3, 50);
        List<ShellCommand> plan = NetworkPlans.shape(topology, ImpairmentBackend.TBF_NFTABLES, List.of(1, 2), shape);
        ShellCommand nft = plan.getLast();
        assertThat(nft.argv()).containsExactly("ip", "netns", "exec", "c4g-sw", "nft", "-f", "-");
        assertThat(nft.stdin()).contains("table netdev c4g_loss {",
                "type filter hook ingress device \"p1\" priority 0; policy accept;",
                "type filter hook ingress device \"p2\" priority 0; policy accept;", "ether type arp accept",
                "counter comment \"seen\"", "numgen random mod 1000 < 300 counter drop comment \"dropped\"");
        assertThat(nft.stdin().indexOf("ether type arp accept")).isLessThan(nft.stdin().indexOf("numgen"));
        assertThat(nft.stdin()).doesNotContain("\"p3\"");
    }

    @Test
    void lossRulesetKeepsEachHostsOwnShare() {
        String nft = NetworkPlans.lossRuleset(topology, Map.of(3, 100));
        assertThat(nft).contains("chain p3 {", "numgen random mod 1000 < 100 counter drop");
    }

    @Test
    void netemCarriesRateOnBothEndsAndLossOnlyOnTheSendersEgress() {
        LinkShape shape = new LinkShape(Rate.KBIT_128, 0.1, 50);
        List<String> lines = lines(NetworkPlans.shape(topology, ImpairmentBackend.NETEM, List.of(1), shape));
        assertThat(lines).containsExactly(
                "ip netns exec c4g-h1 tc qdisc replace dev eth0 root netem rate 128000bit loss 10% limit 50",
                "ip netns exec c4g-sw tc qdisc replace dev p1 root netem rate 128000bit limit 50");
    }

    @Test
    void cutDropsEverythingFromAndToTheHostsPortAndUncutRemovesIt() {
        ShellCommand cut = NetworkPlans.cut(topology, 2);
        assertThat(cut.argv()).containsExactly("ip", "netns", "exec", "c4g-sw", "nft", "-f", "-");
        assertThat(cut.stdin()).contains("table bridge c4g_cut_h2", "type filter hook forward",
                "iifname \"p2\" drop", "oifname \"p2\" drop");
        assertThat(NetworkPlans.uncut(topology, 2).display())
                .isEqualTo("ip netns exec c4g-sw nft delete table bridge c4g_cut_h2 || true");
    }

    @Test
    void forgetKillsTheHostsSocketsAndFlushesItsNeighbours() {
        assertThat(lines(NetworkPlans.forget(topology, 2))).containsExactly(
                "ip netns exec c4g-h2 ss -K -a -t -u || true", "ip -n c4g-h2 neigh flush all || true");
    }

    @Test
    void resetTcpDropsOnlyTheConnectionsToThePeerAndTheCachedMetrics() {
        assertThat(lines(NetworkPlans.resetTcp(topology, 1, 2))).containsExactly(
                "ip netns exec c4g-h1 ss -K dst 10.77.0.2 || true", "ip -n c4g-h1 tcp_metrics flush all || true");
    }

    @Test
    void netemProbeUsesAThrowAwayNamespace() {
        assertThat(lines(NetworkPlans.netemProbe(topology))).contains("ip netns add c4g-probe",
                "ip netns exec c4g-probe tc qdisc add dev lo root netem loss 1%");
        assertThat(NetworkPlans.netemProbeCleanup(topology).display()).isEqualTo("ip netns del c4g-probe || true");
    }

    @Test
    void displayQuotesWhatAShellWouldSplit() {
        assertThat(ShellCommand.of("echo", "a b", "it's").display()).isEqualTo("echo 'a b' 'it'\\''s'");
        assertThat(ShellCommand.of("nft", "-f", "-").withStdin("x").display()).isEqualTo("nft -f - <<'EOF'\nx\nEOF");
    }

    @Test
    void topologyRefusesNamesAndAddressesThatCouldTouchTheRestOfTheMachine() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Topology("", "10.77.0", 6));
        assertThatIllegalArgumentException().isThrownBy(() -> new Topology("eth", "10.77.0", 6));
        assertThatIllegalArgumentException().isThrownBy(() -> new Topology("c4g-", "8.8.8", 6));
        assertThatIllegalArgumentException().isThrownBy(() -> new Topology("c4g-", "10.77.0", 0));
        assertThatIllegalArgumentException().isThrownBy(() -> topology.hostAddress(7));
        assertThat(topology.namespaces()).containsExactly("c4g-sw", "c4g-h1", "c4g-h2", "c4g-h3", "c4g-h4", "c4g-h5",
                "c4g-h6");
        assertThat(topology.nftPrefix()).isEqualTo("c4g_");
    }

    private static List<String> lines(List<ShellCommand> plan) {
        return plan.stream().map(ShellCommand::display).toList();
    }
}

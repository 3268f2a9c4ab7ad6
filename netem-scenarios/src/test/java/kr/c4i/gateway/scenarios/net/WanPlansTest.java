package kr.c4i.gateway.scenarios.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;

import org.junit.jupiter.api.Test;

class WanPlansTest {

    private final WanTopology wan = WanTopology.of(Topology.DEFAULT);

    @Test
    void theSitesAndTheWanGetTheirOwnNamesAndSubnetsBesideTheRunsNetwork() {
        assertThat(wan.site1()).isEqualTo(new Topology("c4ga-", "10.77.1", 3));
        assertThat(wan.site2()).isEqualTo(new Topology("c4gb-", "10.77.2", 3));
        assertThat(wan.wan().switchNamespace()).isEqualTo("c4gw-sw");
        assertThat(wan.gatewayNamespace(1)).isEqualTo("c4ga-h3");
        assertThat(wan.gatewayNamespace(2)).isEqualTo("c4gb-h3");
        assertThat(wan.gatewayLanAddress(2)).isEqualTo("10.77.2.3");
        assertThat(wan.gatewayWanAddress(1)).isEqualTo("10.77.3.1");
        assertThat(wan.gatewayWanAddress(2)).isEqualTo("10.77.3.2");
        assertThat(wan.namespaces()).doesNotContainAnyElementsOf(Topology.DEFAULT.namespaces()).hasSize(9);
        assertThatIllegalArgumentException().isThrownBy(() -> WanTopology.of(new Topology("abcdef-", "10.77.0", 6)))
                .withMessageContaining("at most 5 characters");
        assertThatIllegalArgumentException().isThrownBy(() -> WanTopology.of(new Topology("c4g-", "10.77.253", 6)))
                .withMessageContaining("leaves no room");
    }

    @Test
    void aGatewaysManagementEndpointIsReadInItsHostWithTheCredentialOnStandardInputOnly() {
        ShellCommand get = WanPlans.gatewayHttpGet(wan, 2, 8080, "/actuator/prometheus", "user", "pa\"ss\\word");
        assertThat(get.argv()).containsExactly("ip", "netns", "exec", "c4gb-h3", "curl", "--silent", "--show-error",
                "--fail", "--max-time", "10", "--config", "-", "http://127.0.0.1:8080/actuator/prometheus");
        assertThat(get.stdin()).isEqualTo("user = \"user:pa\\\"ss\\\\word\"\n");
        assertThat(get.mayFail()).isFalse();
        // Neither the verbose output nor an error message shows it, also once allowed to fail.
        assertThat(get.display()).doesNotContain("word").endsWith("< (a credential, not shown)");
        assertThat(get.tolerant().display()).doesNotContain("word");
        assertThat(get.tolerant().secretStdin()).isTrue();
    }

    @Test
    void theWanSwitchJoinsOnlyTheTwoGatewayHostsThroughASecondInterface() {
        List<String> lines = lines(WanPlans.create(wan));
        assertThat(lines).contains("ip netns add c4gw-sw",
                "ip link add wan0 netns c4ga-h3 type veth peer name p1 netns c4gw-sw",
                "ip link add wan0 netns c4gb-h3 type veth peer name p2 netns c4gw-sw",
                "ip -n c4ga-h3 addr add 10.77.3.1/24 dev wan0", "ip -n c4gb-h3 addr add 10.77.3.2/24 dev wan0",
                "ip -n c4gw-sw link set p1 master br0");
        assertThat(String.join("\n", lines)).doesNotContain("c4ga-h1", "c4gb-h2", "eth0");
    }

    @Test
    void onlyTheWanLinkIsShapedBothEndsWithOneLossDecisionPerFrameEachGatewaySends() {
        List<ShellCommand> plan = WanPlans.shape(wan, ImpairmentBackend.TBF_NFTABLES,
                new LinkShape(Rate.KBIT_256, 0.3, 50));
        List<String> lines = lines(plan);
        assertThat(lines).anyMatch(l -> l.startsWith("ip netns exec c4ga-h3 tc qdisc replace dev wan0 root tbf rate "))
                .anyMatch(l -> l.startsWith("ip netns exec c4gb-h3 tc qdisc replace dev wan0 root tbf rate "))
                .anyMatch(l -> l.startsWith("ip netns exec c4gw-sw tc qdisc replace dev p1 root tbf rate "))
                .anyMatch(l -> l.startsWith("ip netns exec c4gw-sw tc qdisc replace dev p2 root tbf rate "));
        assertThat(String.join("\n", lines)).doesNotContain("dev eth0").doesNotContain("c4g-sw");
        String rules = plan.stream().map(ShellCommand::stdin).filter(s -> s != null).findFirst().orElseThrow();
        assertThat(rules).contains("table netdev c4gw_loss", "ingress device \"p1\"", "ingress device \"p2\"",
                "numgen random mod 1000 < 300", "ether type arp accept");
        assertThat(lines(WanPlans.shape(wan, ImpairmentBackend.TBF_NFTABLES, new LinkShape(Rate.MBIT_2, 0, 50))))
                .noneMatch(l -> l.contains("nft -f"));
    }

    @Test
    void theOutageCutsSiteOnesGatewayOffTheWanBothWays() {
        ShellCommand cut = WanPlans.cut(wan);
        assertThat(cut.stdin()).contains("table bridge c4gw_cut_h1", "iifname \"p1\" drop", "oifname \"p1\" drop");
        assertThat(String.join(" ", cut.argv())).startsWith("ip netns exec c4gw-sw nft");
        assertThat(String.join(" ", WanPlans.uncut(wan).argv()))
                .isEqualTo("ip netns exec c4gw-sw nft delete table bridge c4gw_cut_h1");
        assertThat(lines(WanPlans.destroy(wan))).containsExactly("ip netns del c4gw-sw");
    }

    @Test
    void theDelayQueuesEveryForwardedWanFrameToItsHelperInTheWanSwitchAndNowhereElse() {
        assertThat(lines(WanPlans.delayOn(wan))).containsExactly(
                "ip netns exec c4gw-sw sysctl -qw net.bridge.bridge-nf-call-iptables=1",
                "ip netns exec c4gw-sw iptables-nft -A FORWARD -j NFQUEUE --queue-num 0");
        assertThat(WanPlans.delayOff(wan).display())
                .isEqualTo("ip netns exec c4gw-sw iptables-nft -D FORWARD -j NFQUEUE --queue-num 0 || true");
        String helper = WanPlans.delayHelper(wan, java.time.Duration.ofMillis(250), 1024,
                java.nio.file.Path.of("/jdk/bin/java"), "a.jar:b.jar").display();
        assertThat(helper).startsWith("ip netns exec c4gw-sw /jdk/bin/java -Xmx32m ")
                .contains("--enable-native-access=ALL-UNNAMED -cp a.jar:b.jar kr.c4i.gateway.scenarios.delay.DelayHelper")
                .endsWith("--queue 0 --delay-ms 250 --max-packets 1024");
    }

    @Test
    void theDelayQueuesCountersAreReadFromTheKernelsQueueTable() {
        String proc = "    0  31690     3 1     0    17     2       10  1\n    5  1     0 1     0     0     0       99  1\n";
        assertThat(DelayCounters.parse(proc, 0)).isEqualTo(new DelayCounters(10, 17, 2));
        assertThat(DelayCounters.parse(proc, 0).dropped()).isEqualTo(19);
        assertThat(DelayCounters.parse("", 0)).isEqualTo(DelayCounters.ZERO);
        assertThat(new DelayCounters(10, 17, 2).minus(new DelayCounters(4, 7, 2))).isEqualTo(new DelayCounters(6, 10, 0));
    }

    private static List<String> lines(List<ShellCommand> plan) {
        return plan.stream().map(c -> String.join(" ", c.argv())).toList();
    }
}

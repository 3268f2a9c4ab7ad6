package kr.c4i.gateway.scenarios.experiment;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How a run's network and nodes were set up, for the report's setup table.
 *
 * @param backend the impairment backend's description
 * @param congestionControl TCP congestion control in the hosts
 * @param arpRetryMillis how soon the hosts repeated an unanswered ARP request; null in runs made before it was
 *        recorded, which had the kernel's default (1,000 ms)
 * @param hosts host namespaces on the switch
 * @param subnet the hosts' /24
 * @param queues per link rate used, the shaper's queue
 * @param kernel {@code uname -r}
 * @param cpus processors the machine has
 * @param java the nodes' Java runtime version
 * @param nodeJar the node jar started in every host
 * @param nodeHeap the nodes' -Xmx
 * @param types the KMTF types each experiment sent
 * @param nodeProperties extra bridge properties every node got
 * @param gatewayProperties extra properties every WAN gateway got; empty in runs made before they were recorded
 * @param secured whether nodes and gateways ran with the run's site PKI (TLS, DDS Security, sealed WAN frames); null in
 *        runs made before it was recorded, which ran plain
 */
public record RunSetup(String backend, String congestionControl, @Nullable Integer arpRetryMillis, int hosts,
        String subnet, List<Queue> queues, String kernel, int cpus, String java, String nodeJar, String nodeHeap, String types,
        List<String> nodeProperties, @Nullable List<String> gatewayProperties, @Nullable Boolean secured) {

    public RunSetup {
        queues = List.copyOf(queues);
        nodeProperties = List.copyOf(nodeProperties);
        gatewayProperties = gatewayProperties == null ? List.of() : List.copyOf(gatewayProperties);
    }

    /**
     * A shaper's queue at one rate.
     *
     * @param rate the link rate's label
     * @param packets full-size frames it holds
     * @param limitBytes its limit in bytes
     * @param burstBytes its token bucket
     * @param drainMillis how long a full queue takes to drain at the rate
     */
    public record Queue(String rate, int packets, long limitBytes, long burstBytes, double drainMillis) {
    }
}

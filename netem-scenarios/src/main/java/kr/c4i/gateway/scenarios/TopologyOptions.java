package kr.c4i.gateway.scenarios;

import picocli.CommandLine.Option;

import kr.c4i.gateway.scenarios.net.Topology;

/** Which emulated network a network command is about. */
final class TopologyOptions {

    @Option(names = "--prefix", defaultValue = "c4g-", description = "Start of every namespace and nftables name.")
    String prefix;

    @Option(names = "--subnet", defaultValue = "10.77.0", description = "The hosts' private /24 (first three octets).")
    String subnet;

    @Option(names = "--hosts", defaultValue = "6", description = "Host namespaces on the switch.")
    int hosts;

    Topology topology() {
        return new Topology(prefix, subnet, hosts);
    }
}

package kr.c4i.gateway.scenarios.net;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Names and addresses of the emulated network: one switch namespace holding a bridge, and host namespaces
 * {@code 1..hosts}, each attached to the bridge by a veth pair ({@code eth0} in the host, {@code p<i>} on the
 * switch). Every name starts with the prefix, so nothing else on the machine is ever touched; the subnet is
 * only used inside these namespaces.
 *
 * @param prefix start of every namespace and nftables table name, e.g. {@code c4g-}
 * @param subnet the first three octets of the private /24 the hosts live in, e.g. {@code 10.77.0}
 * @param hosts number of host namespaces (the study had six servers)
 */
public record Topology(String prefix, String subnet, int hosts) {

    /** Where multicast goes: without this route multicast sends fail with "Network is unreachable". */
    public static final String MULTICAST_ROUTE = "224.0.0.0/4";

    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9]{0,5}-");
    private static final Pattern SUBNET = Pattern.compile("(10|172|192)\\.\\d{1,3}\\.\\d{1,3}");

    /** Six hosts on 10.77.0.0/24, like the study's six servers on one switch. */
    public static final Topology DEFAULT = new Topology("c4g-", "10.77.0", 6);

    /**
     * @throws IllegalArgumentException naming the component that is out of its range
     */
    public Topology {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("prefix must be 1-6 lower-case letters or digits and a '-', e.g. c4g-; was "
                    + prefix);
        }
        if (subnet == null || !SUBNET.matcher(subnet).matches()) {
            throw new IllegalArgumentException("subnet must be the first three octets of a private /24, e.g. 10.77.0; was "
                    + subnet);
        }
        if (hosts < 1 || hosts > 32) {
            throw new IllegalArgumentException("hosts must be between 1 and 32, was " + hosts);
        }
    }

    public String switchNamespace() {
        return prefix + "sw";
    }

    public String hostNamespace(int host) {
        return prefix + "h" + checkHost(host);
    }

    /** The host's address; host {@code i} is {@code <subnet>.i}. */
    public String hostAddress(int host) {
        return subnet + "." + checkHost(host);
    }

    public String hostCidr(int host) {
        return hostAddress(host) + "/24";
    }

    /** The host's switch port, in the switch namespace: what host {@code i} sends is its {@code rx}. */
    public String switchPort(int host) {
        return "p" + checkHost(host);
    }

    public String bridge() {
        return "br0";
    }

    /** The host's interface, in the host namespace. */
    public String hostInterface() {
        return "eth0";
    }

    /** nftables names allow no '-': the prefix with '_' instead, e.g. {@code c4g_}. */
    public String nftPrefix() {
        return prefix.replace('-', '_');
    }

    public List<Integer> hostIndexes() {
        return IntStream.rangeClosed(1, hosts).boxed().toList();
    }

    /** Every namespace this topology creates, switch first. */
    public List<String> namespaces() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(switchNamespace()),
                hostIndexes().stream().map(this::hostNamespace)).toList();
    }

    private int checkHost(int host) {
        if (host < 1 || host > hosts) {
            throw new IllegalArgumentException("host must be between 1 and " + hosts + ", was " + host);
        }
        return host;
    }
}

package kr.c4i.gateway.scenarios.net;

import java.util.List;

/**
 * The {@code wan} experiment's network: two sites, each a {@link Topology} of its own (a switch namespace and
 * three hosts on their own /24), and a WAN switch namespace whose two ports join the sites' gateway hosts through
 * a second interface ({@code wan0}) on a third /24. Only the WAN ports are impaired; the LANs stay at 1 Gbit/s.
 * Names derive from the run's prefix and subnet ({@code c4g-}, {@code 10.77.0}: sites {@code c4ga-}/{@code 10.77.1}
 * and {@code c4gb-}/{@code 10.77.2}, WAN {@code c4gw-sw}/{@code 10.77.3}), so they never clash with the other
 * experiments' network.
 *
 * @param site1 the first site's switch and hosts
 * @param site2 the second site's switch and hosts
 * @param wan the WAN switch: {@link Topology#switchNamespace}, its ports {@code p1} (site 1's gateway) and
 *        {@code p2}, its nftables names; its host namespaces are not created (the gateway hosts are the sites')
 */
public record WanTopology(Topology site1, Topology site2, Topology wan) {

    /** Hosts per site: two nodes and the gateway. */
    public static final int SITE_HOSTS = 3;

    /** The gateway host of each site. */
    public static final int GATEWAY_HOST = 3;

    /** The gateway hosts' WAN interface. */
    public static final String WAN_INTERFACE = "wan0";

    /**
     * The WAN network of a run whose other experiments use {@code base}.
     *
     * @throws IllegalArgumentException if the prefix leaves no room for the site letter or the subnet's third
     *         octet for three more /24s
     */
    public static WanTopology of(Topology base) {
        String stem = base.prefix().substring(0, base.prefix().length() - 1);
        if (stem.length() > 5) {
            throw new IllegalArgumentException("the wan experiment needs a prefix of at most 5 characters before the "
                    + "'-' (it appends a site letter), was " + base.prefix());
        }
        int dot = base.subnet().lastIndexOf('.');
        int third = Integer.parseInt(base.subnet().substring(dot + 1));
        if (third > 252) {
            throw new IllegalArgumentException("the wan experiment uses the three /24s after the subnet; "
                    + base.subnet() + " leaves no room");
        }
        String head = base.subnet().substring(0, dot + 1);
        return new WanTopology(new Topology(stem + "a-", head + (third + 1), SITE_HOSTS),
                new Topology(stem + "b-", head + (third + 2), SITE_HOSTS),
                new Topology(stem + "w-", head + (third + 3), 2));
    }

    /** Site 1 or 2. */
    public Topology site(int site) {
        return switch (site) {
            case 1 -> site1;
            case 2 -> site2;
            default -> throw new IllegalArgumentException("site must be 1 or 2, was " + site);
        };
    }

    /** The namespace of a site's gateway host. */
    public String gatewayNamespace(int site) {
        return site(site).hostNamespace(GATEWAY_HOST);
    }

    /** A site gateway's WAN address. */
    public String gatewayWanAddress(int site) {
        return wan.hostAddress(checkSite(site));
    }

    /** A site gateway's LAN address. */
    public String gatewayLanAddress(int site) {
        return site(site).hostAddress(GATEWAY_HOST);
    }

    /** The WAN switch port of a site's gateway: what it sends on the WAN is this port's {@code rx}. */
    public String wanPort(int site) {
        return wan.switchPort(checkSite(site));
    }

    /** Every namespace of both sites and the WAN switch. */
    public List<String> namespaces() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.concat(site1.namespaces().stream(),
                site2.namespaces().stream()), java.util.stream.Stream.of(wan.switchNamespace())).toList();
    }

    private static int checkSite(int site) {
        if (site != 1 && site != 2) {
            throw new IllegalArgumentException("site must be 1 or 2, was " + site);
        }
        return site;
    }
}

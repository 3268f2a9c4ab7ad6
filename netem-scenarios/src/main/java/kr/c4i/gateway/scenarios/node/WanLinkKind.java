package kr.c4i.gateway.scenarios.node;

import java.util.Locale;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * The WAN link the {@code wan} experiment runs the gateways over ({@code gateway.wan.link}), and the LAN transport
 * of the sites with it: the pairs, DDS LAN with the {@code dds} link and JMS LAN with the {@code jms} link;
 * the {@code norm} link joins DDS LANs, as the {@code dds} link does.
 */
public enum WanLinkKind {

    /** Artemis between the site gateways' brokers; JMS nodes on the LANs. */
    JMS("jms", TransportKind.JMS),

    /** Cyclone DDS unicast on a WAN domain; DDS nodes on the LANs. */
    DDS("dds", TransportKind.DDS),

    /** NORM (RFC 5740) unicast between the gateways at the WAN budget, FEC repair; DDS nodes on the LANs. */
    NORM("norm", TransportKind.DDS);

    private final String label;
    private final TransportKind lanTransport;

    WanLinkKind(String label, TransportKind lanTransport) {
        this.label = label;
        this.lanTransport = lanTransport;
    }

    /** The value of {@code gateway.wan.link}, and the link's key in result files. */
    public String label() {
        return label;
    }

    /** The transport of the nodes and of the gateways' LAN side. */
    public TransportKind lanTransport() {
        return lanTransport;
    }

    public static WanLinkKind parse(String text) {
        for (WanLinkKind kind : values()) {
            if (kind.label.equals(text.strip().toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a WAN link; use "
                + java.util.Arrays.stream(values()).map(WanLinkKind::label).toList());
    }
}

package kr.c4i.gateway.wan.config;

import java.util.Locale;

/** Which WAN link carries frames between site gateways ({@code gateway.wan.link}). */
public enum LinkKind {
    /** Cyclone DDS unicast to the peer gateways on a WAN domain of its own. */
    DDS,
    /** Artemis: frames produced straight to the peer gateways' brokers. */
    JMS,
    /** NORM (RFC 5740) unicast at a fixed rate, losses repaired with FEC parity: the link made for lossy links. */
    NORM;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}

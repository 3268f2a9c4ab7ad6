/**
 * The WAN link's frames sealed per peer site: authenticated and encrypted with AES-256-GCM under keys agreed (ECDH,
 * HKDF-SHA256) from the gateways' site certificates, replays refused. A decorator on the link SPI, so every link
 * (dds, jms, norm) carries sealed frames with no change inside it. See docs/wan-gateway.md, "Security".
 */
@NullMarked
package kr.c4i.gateway.wan.seal;

import org.jspecify.annotations.NullMarked;

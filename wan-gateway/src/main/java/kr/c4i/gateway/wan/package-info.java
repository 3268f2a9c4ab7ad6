/**
 * The WAN gateway: one per site, between the site's LAN (DDS domain or brokers) and the peer sites' gateways over a
 * narrow WAN link; a durable store by precedence and custody at every hop.
 */
@NullMarked
package kr.c4i.gateway.wan;

import org.jspecify.annotations.NullMarked;

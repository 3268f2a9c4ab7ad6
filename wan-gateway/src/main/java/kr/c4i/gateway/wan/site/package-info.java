/** Which node is at which site: what the gateway relays over the WAN and what it delivers on its own LAN. */
@NullMarked
package kr.c4i.gateway.wan.site;

import org.jspecify.annotations.NullMarked;

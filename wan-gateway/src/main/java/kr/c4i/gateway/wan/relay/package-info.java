/** What crosses the WAN and how a gateway relays it: relayed envelopes, custody between hops. */
@NullMarked
package kr.c4i.gateway.wan.relay;

import org.jspecify.annotations.NullMarked;

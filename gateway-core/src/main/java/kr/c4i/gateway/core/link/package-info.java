/**
 * The WAN link SPI the wan-gateway programs against: a link carries opaque frames between site gateways (NORM, DDS or
 * JMS underneath); custody, batching, compression and scheduling stay above it.
 */
@NullMarked
package kr.c4i.gateway.core.link;

import org.jspecify.annotations.NullMarked;

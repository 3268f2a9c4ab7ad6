/**
 * The {@code norm} WAN link: frames as NORM objects between site gateways, at a fixed rate, repaired with FEC.
 */
@NullMarked
package kr.c4i.gateway.norm.link;

import org.jspecify.annotations.NullMarked;

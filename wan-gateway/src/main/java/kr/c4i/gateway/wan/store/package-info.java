/**
 * The gateway's durable relay store: every copy this gateway holds in custody, per route (a peer site or this site's
 * LAN), bounded in bytes with tiered refusal by precedence, and the in-memory backlog the scheduler takes from.
 */
@NullMarked
package kr.c4i.gateway.wan.store;

import org.jspecify.annotations.NullMarked;

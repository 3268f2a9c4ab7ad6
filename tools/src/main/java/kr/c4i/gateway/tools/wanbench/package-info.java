/**
 * The WAN relay benchmark: two WAN gateways in one JVM, each with its own PostgreSQL, joined by a real link on
 * loopback, with a real node on each LAN.
 */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.tools.wanbench;

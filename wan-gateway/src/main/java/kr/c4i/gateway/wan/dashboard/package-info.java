/** The WAN gateway's charts on the built-in dashboard page. */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.wan.dashboard;

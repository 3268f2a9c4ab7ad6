/** The WAN gateway's configuration properties: site, link, LAN, store, routing. */
@NullMarked
package kr.c4i.gateway.wan.config;

import org.jspecify.annotations.NullMarked;

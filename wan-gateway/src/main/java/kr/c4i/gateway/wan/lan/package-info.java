/**
 * The site's LAN side of the gateway: takes what the site's nodes send to nodes at other sites off the LAN (DDS
 * domain or brokers), and delivers what comes over the WAN to the site's nodes, with custody at both ends.
 */
@NullMarked
package kr.c4i.gateway.wan.lan;

import org.jspecify.annotations.NullMarked;

/** The WAN gateway's health: its LAN side, its WAN link per peer, its store. */
@NullMarked
package kr.c4i.gateway.wan.health;

import org.jspecify.annotations.NullMarked;

/** Which stored message goes onto the WAN next: precedence first, fair across types, within the link's credit. */
@NullMarked
package kr.c4i.gateway.wan.schedule;

import org.jspecify.annotations.NullMarked;

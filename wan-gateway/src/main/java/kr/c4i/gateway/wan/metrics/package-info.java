/** The WAN gateway's Micrometer meters. */
@NullMarked
package kr.c4i.gateway.wan.metrics;

import org.jspecify.annotations.NullMarked;

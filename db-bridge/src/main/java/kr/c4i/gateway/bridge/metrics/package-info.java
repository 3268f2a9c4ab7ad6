/** The bridge's meters. */
@NullMarked
package kr.c4i.gateway.bridge.metrics;

import org.jspecify.annotations.NullMarked;

/** The one list of metric names and tags. */
@NullMarked
package kr.c4i.gateway.core.metrics;

import org.jspecify.annotations.NullMarked;

/** Waiting between the attempts of a retry loop. */
@NullMarked
package kr.c4i.gateway.core.retry;

import org.jspecify.annotations.NullMarked;

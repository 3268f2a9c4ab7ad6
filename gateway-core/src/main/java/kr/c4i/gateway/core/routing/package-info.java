/** Which nodes receive which KMTF types. */
@NullMarked
package kr.c4i.gateway.core.routing;

import org.jspecify.annotations.NullMarked;

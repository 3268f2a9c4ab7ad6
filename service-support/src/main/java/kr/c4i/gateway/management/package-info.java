/** The management endpoints' credential. */
@NullMarked
package kr.c4i.gateway.management;

import org.jspecify.annotations.NullMarked;

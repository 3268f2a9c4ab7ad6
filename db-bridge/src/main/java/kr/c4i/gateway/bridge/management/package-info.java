/** The management endpoints' credential. */
@NullMarked
package kr.c4i.gateway.bridge.management;

import org.jspecify.annotations.NullMarked;

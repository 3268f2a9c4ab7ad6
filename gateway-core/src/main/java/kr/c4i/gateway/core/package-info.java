/** Envelope and node identity, shared by every transport and the bridge. */
@NullMarked
package kr.c4i.gateway.core;

import org.jspecify.annotations.NullMarked;

/**
 * The gateway service: one node between its C4I interface database and the other nodes, over the configured transport.
 */
@NullMarked
package kr.c4i.gateway.bridge;

import org.jspecify.annotations.NullMarked;

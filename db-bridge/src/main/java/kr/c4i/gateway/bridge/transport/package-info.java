/**
 * The transport a node runs, chosen by {@code gateway.node.transport}; a {@code Transport} bean of the user's own wins.
 */
@NullMarked
package kr.c4i.gateway.bridge.transport;

import org.jspecify.annotations.NullMarked;

/**
 * The emulated network: hosts in network namespaces on one bridge, link shapes, impairments and counters.
 */
@NullMarked
package kr.c4i.gateway.scenarios.net;

import org.jspecify.annotations.NullMarked;

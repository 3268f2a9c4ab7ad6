/**
 * The WAN link's delay: a user-space NFQUEUE helper that holds every queued frame for a fixed time, then accepts it
 * (this kernel has no netem to delay packets). Runs in the WAN switch's namespace as its own process.
 */
@NullMarked
package kr.c4i.gateway.scenarios.delay;

import org.jspecify.annotations.NullMarked;

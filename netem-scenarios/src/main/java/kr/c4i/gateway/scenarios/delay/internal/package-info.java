/**
 * Raw bindings of Debian's libnetfilter-queue1 and the few libc calls the delay helper's loop needs, through
 * {@code java.lang.foreign}. Only {@link kr.c4i.gateway.scenarios.delay.PacketDelay} uses them.
 */
@NullMarked
package kr.c4i.gateway.scenarios.delay.internal;

import org.jspecify.annotations.NullMarked;

/**
 * A small binding of NORM (NACK-Oriented Reliable Multicast, RFC 5740; the US Naval Research Laboratory's libnorm,
 * Debian's {@code libnorm1} 1.5.9) over {@code java.lang.foreign}: no JNI, no C shim. {@link
 * kr.c4i.gateway.norm.NormInstance} owns NORM's thread and event queue, {@link kr.c4i.gateway.norm.NormSession} one
 * session and the buffers of the objects it sends. Needs {@code --enable-native-access=ALL-UNNAMED}.
 */
@NullMarked
package kr.c4i.gateway.norm;

import org.jspecify.annotations.NullMarked;

/**
 * The raw libnorm binding: downcall handles and nothing else. Not for use outside {@code kr.c4i.gateway.norm}.
 */
@NullMarked
package kr.c4i.gateway.norm.internal;

import org.jspecify.annotations.NullMarked;

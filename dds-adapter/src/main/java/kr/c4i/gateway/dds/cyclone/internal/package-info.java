/**
 * Raw Cyclone DDS 0.10.2 access for {@link kr.c4i.gateway.dds.cyclone}: the one list of bound functions
 * ({@link kr.c4i.gateway.dds.cyclone.internal.DdscSymbol}), their downcall handles and the return-code check
 * ({@link kr.c4i.gateway.dds.cyclone.internal.Ddsc}), C layouts and constants
 * ({@link kr.c4i.gateway.dds.cyclone.internal.DdscLayouts}) and topic descriptors built in Java
 * ({@link kr.c4i.gateway.dds.cyclone.internal.TypeLayout}). Not an API: public only so the binding package can
 * use it.
 */
@NullMarked
package kr.c4i.gateway.dds.cyclone.internal;

import org.jspecify.annotations.NullMarked;

/**
 * Small helpers this module's packages share ({@link kr.c4i.gateway.dds.internal.BoundedMaps}). Not an API: public
 * only so those packages can use it; no public signature of the module exposes it.
 */
@NullMarked
package kr.c4i.gateway.dds.internal;

import org.jspecify.annotations.NullMarked;

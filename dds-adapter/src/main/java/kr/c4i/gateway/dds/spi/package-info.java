/**
 * The service-provider interface a DDS implementation implements to sit behind {@link kr.c4i.gateway.dds}. The
 * public classes there own lifecycle, locking and closing order; drivers only translate calls. Bindings register a
 * {@link kr.c4i.gateway.dds.spi.DdsBinding} with {@link java.util.ServiceLoader}.
 */
@NullMarked
package kr.c4i.gateway.dds.spi;

import org.jspecify.annotations.NullMarked;

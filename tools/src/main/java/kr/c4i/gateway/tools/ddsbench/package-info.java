/**
 * {@code bin/dds-bench}: the Cyclone DDS binding measured against Cyclone's own {@code ddsperf} on loopback, in one
 * run; see {@link kr.c4i.gateway.tools.ddsbench.DdsBindingBenchmark} and docs/benchmarks.md. Not used by the gateway.
 */
@NullMarked
package kr.c4i.gateway.tools.ddsbench;

import org.jspecify.annotations.NullMarked;

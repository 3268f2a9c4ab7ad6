/**
 * The study's experiments (recovery, 1:N, loss) and the runner that repeats them on a testbed of real nodes.
 */
@NullMarked
package kr.c4i.gateway.scenarios.experiment;

import org.jspecify.annotations.NullMarked;

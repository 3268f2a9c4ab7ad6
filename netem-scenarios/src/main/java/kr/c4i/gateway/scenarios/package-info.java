/**
 * The scenario harness's command line: plans, runs, reports and pools the study's experiments on an emulated network.
 */
@NullMarked
package kr.c4i.gateway.scenarios;

import org.jspecify.annotations.NullMarked;

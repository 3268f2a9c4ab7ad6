/**
 * Results as tables and charts beside the study's figures, with the targets met or missed.
 */
@NullMarked
package kr.c4i.gateway.scenarios.report;

import org.jspecify.annotations.NullMarked;

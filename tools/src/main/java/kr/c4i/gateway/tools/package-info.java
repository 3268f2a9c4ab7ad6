/**
 * What the command-line tools share: one exit-code table and one way to report invalid input.
 */
@NullMarked
package kr.c4i.gateway.tools;

import org.jspecify.annotations.NullMarked;

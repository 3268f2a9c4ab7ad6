/**
 * The gateway nodes in the emulated hosts: how they are deployed, started, stopped and probed, and their databases.
 */
@NullMarked
package kr.c4i.gateway.scenarios.node;

import org.jspecify.annotations.NullMarked;

/**
 * How a node is launched, described once: {@link kr.c4i.gateway.tools.node.NodeLaunch} holds the properties a node
 * needs and renders them for an in-JVM Spring application, for a process's command line and, for the secrets, for
 * its environment. The embedded default, the scenario harness and the end-to-end suite all build their nodes with it.
 */
@NullMarked
package kr.c4i.gateway.tools.node;

import org.jspecify.annotations.NullMarked;

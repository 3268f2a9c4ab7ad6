/**
 * How a node or a site's WAN gateway is launched, described once: {@link kr.c4i.gateway.tools.node.NodeLaunch} and
 * {@link kr.c4i.gateway.tools.node.GatewayLaunch} hold the properties each needs, and their one
 * {@link kr.c4i.gateway.tools.node.Launch} renders them for an in-JVM Spring application, for a process's command
 * line and, for the secrets (each launch's own rule), for its environment. The embedded default, the scenario harness
 * and the end-to-end suite all build their nodes and gateways with them.
 */
@NullMarked
package kr.c4i.gateway.tools.node;

import org.jspecify.annotations.NullMarked;

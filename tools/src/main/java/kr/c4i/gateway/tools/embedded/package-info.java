/**
 * {@code bin/gateway}: the embedded default. Gateway nodes on this machine, each with its own embedded PostgreSQL and
 * the service's Spring Boot context: {@code demo}, {@code bench}, and {@code node} (one node, as the scenario harness
 * starts in each emulated host). Not part of the deployed service.
 */
@NullMarked
package kr.c4i.gateway.tools.embedded;

import org.jspecify.annotations.NullMarked;

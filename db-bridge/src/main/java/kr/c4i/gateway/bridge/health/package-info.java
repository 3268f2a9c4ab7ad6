/** Health of the transport and the outbox for the management endpoints. */
@NullMarked
package kr.c4i.gateway.bridge.health;

import org.jspecify.annotations.NullMarked;

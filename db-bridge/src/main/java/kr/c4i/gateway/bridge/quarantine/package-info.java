/** Outbox rows that cannot be sent as they are. */
@NullMarked
package kr.c4i.gateway.bridge.quarantine;

import org.jspecify.annotations.NullMarked;

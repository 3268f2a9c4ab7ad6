/** The sending side: outbox rows claimed, validated and published, or quarantined; deliveries receipted. */
@NullMarked
package kr.c4i.gateway.bridge.outbox;

import org.jspecify.annotations.NullMarked;

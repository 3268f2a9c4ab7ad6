/**
 * Spans of the messages a service moves, per the OpenTelemetry messaging conventions: a PRODUCER span per message a
 * bridge sends, a CONSUMER span per message a bridge stores into its inbox or a WAN gateway into its store, each
 * linked to the message's creation context ({@link kr.c4i.gateway.tracing.MessageTracing}). Off by default; on
 * ({@code gateway.tracing.enabled}), Spring Boot's OpenTelemetry SDK records them and they reach the OTLP collector
 * through a queue on disk ({@link kr.c4i.gateway.tracing.SpanQueue}).
 */
@NullMarked
package kr.c4i.gateway.tracing;

import org.jspecify.annotations.NullMarked;

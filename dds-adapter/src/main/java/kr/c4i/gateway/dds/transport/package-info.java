/**
 * The DDS transport of the gateway: {@link kr.c4i.gateway.dds.transport.DdsTransport} implements
 * {@link kr.c4i.gateway.core.transport.ReceiptingTransport} over {@link kr.c4i.gateway.dds} with one topic per
 * KMTF type and the wire types of {@code src/main/idl/kmtf.idl} ({@link kr.c4i.gateway.dds.transport.KmtfTypes}).
 *
 * <p>Envelope to sample: message id, origin node, KMTF type, precedence (IDL enum), classification and body map
 * one to one; created-at becomes nanoseconds since the epoch; {@code seq} counts each writer's samples from 1 and
 * {@code sent_at_ns} stamps the transmission; {@code trace} is the hop trace's text
 * ({@link kr.c4i.gateway.core.HopTrace#format}, empty for none), and a sample whose trace is not hops is refused
 * ({@code invalid-trace}); {@code traceparent} is the text of the creation's W3C trace context
 * ({@link kr.c4i.gateway.core.TraceParent}, empty for none), and a sample whose traceparent is malformed is
 * delivered without it, with a warning (the context is diagnostics only). Receipts: after the inbound handler
 * returns, the receiving node publishes one {@code kmtf::KmtfReceipt} per origin in the batch, in the DDS partition
 * named after that origin, so only the origin's receipt reader matches it.
 */
@NullMarked
package kr.c4i.gateway.dds.transport;

import org.jspecify.annotations.NullMarked;

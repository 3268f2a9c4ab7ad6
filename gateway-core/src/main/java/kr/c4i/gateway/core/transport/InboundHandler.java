package kr.c4i.gateway.core.transport;

import java.util.List;

import kr.c4i.gateway.core.Envelope;

/**
 * Receives what a transport delivers. A transport acknowledges a batch only after this returns, so
 * the handler must have made the batch durable (or decided to drop it) before returning; if it
 * throws, the transport redelivers. Handlers must therefore tolerate duplicates.
 */
@FunctionalInterface
public interface InboundHandler {

    void deliver(List<Envelope> batch) throws Exception;
}

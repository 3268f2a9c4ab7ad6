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

    /**
     * Delivers a batch together with what the transport received but could not read as envelopes, and
     * returns the envelopes that were delivered. An envelope left out was refused: the handler kept it
     * aside (with the refusals) and a transport that confirms deliveries to senders must not confirm it.
     * Like {@link #deliver}, it either returns having made everything durable or throws, and the
     * transport hands the same batch again.
     *
     * <p>By default everything is delivered and the refusals are only counted by the transport.
     */
    default List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) throws Exception {
        deliver(batch);
        return batch;
    }
}

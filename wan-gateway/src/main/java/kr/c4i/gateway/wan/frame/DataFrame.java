package kr.c4i.gateway.wan.frame;

import java.util.List;

import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * Messages a peer hands this site, to be receipted once stored.
 *
 * @param epoch the sender's epoch
 * @param seq the frame's sequence number within the epoch, 0 or more; the receipt names it
 * @param envelopes the messages, in the sender's order; never empty
 */
public record DataFrame(long epoch, long seq, List<RelayedEnvelope> envelopes) implements Frame {

    public DataFrame {
        envelopes = List.copyOf(envelopes);
    }
}

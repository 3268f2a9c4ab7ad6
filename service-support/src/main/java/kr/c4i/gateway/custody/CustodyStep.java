package kr.c4i.gateway.custody;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One custody step as a node's or gateway's log recorded it.
 *
 * @param at when the step was written, by the clock of that database's server
 * @param event what happened, as {@link CustodyEvent#label()} spells it
 * @param hopKind {@code node} or {@code site}: whose database the log is in
 * @param hop that node's or site's id
 * @param peers the nodes or sites on the other side of the step: destinations, origin, next hop ({@code @lan}: the
 *        gateway's own LAN)
 * @param link what the step went over: {@code jms}, {@code dds}, {@code norm}, {@code lan}
 * @param precedence the message's precedence, where the step knew it
 * @param detail why, for quarantines, refusals and drops
 */
public record CustodyStep(Instant at, String event, String hopKind, String hop, List<String> peers,
        @Nullable String link, @Nullable String precedence, @Nullable String detail) {

    public CustodyStep {
        peers = List.copyOf(peers);
    }
}

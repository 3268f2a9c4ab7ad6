package kr.c4i.gateway.wan.relay;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.link.SiteId;

/**
 * An envelope on its way between sites, with what keeps it from looping.
 *
 * @param envelope the message as its origin node sent it, unchanged on every hop but for its trace, to which each
 *        site's gateway adds its own hop when it takes custody
 * @param crossed the sites the message has been at, in order: its origin site first, this site last once it is here;
 *        a gateway never sends it to one of them again
 * @param boundFor the sites this copy is responsible for reaching (the next hop delivers to those that are its own
 *        site and relays towards the rest); never empty, never one of {@code crossed} when sent
 */
public record RelayedEnvelope(Envelope envelope, List<SiteId> crossed, SortedSet<SiteId> boundFor) {

    public RelayedEnvelope {
        Objects.requireNonNull(envelope, "envelope");
        crossed = List.copyOf(crossed);
        boundFor = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(boundFor));
        if (crossed.isEmpty()) {
            throw new IllegalArgumentException("A relayed message has crossed at least its origin site");
        }
        if (boundFor.isEmpty()) {
            throw new IllegalArgumentException("A relayed message is bound for at least one site");
        }
    }

    public static RelayedEnvelope of(Envelope envelope, List<SiteId> crossed, Set<SiteId> boundFor) {
        return new RelayedEnvelope(envelope, crossed, new TreeSet<>(boundFor));
    }

    public SiteId originSite() {
        return crossed.getFirst();
    }

    public boolean hasCrossed(SiteId site) {
        return crossed.contains(site);
    }

    public String messageId() {
        return envelope.messageId();
    }
}

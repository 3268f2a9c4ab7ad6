package kr.c4i.gateway.wan.relay;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A link to one peer that is up and keeps every frame handed to it, with the urgency it was sent as, for tests of the
 * engine on a real store. It spends more on frames from {@link #urgentFrom} when a test sets one.
 */
final class RecordingLink implements WanLink {

    /** A frame as the engine handed it over: ROUTINE when it named no urgency. */
    record Sent(byte[] frame, Precedence urgency) {
    }

    final List<Sent> sent = new CopyOnWriteArrayList<>();
    volatile @Nullable Precedence urgentFrom;
    /** The largest frame it takes, as an engine built after a test sets it reads it: the norm link's is 1,357. */
    volatile int maxFrameBytes = 64 * 1024;
    /** The round trip it says it measures: none unless a test sets one. */
    volatile Duration roundTrip = Duration.ZERO;
    /** The bytes it says the peer has not acknowledged yet: none unless a test sets some. */
    volatile long unacknowledgedBytes;
    private final SiteId peer;

    RecordingLink(SiteId peer) {
        this.peer = peer;
    }

    @Override
    public String kind() {
        return "test";
    }

    @Override
    public Set<SiteId> peers() {
        return Set.of(peer);
    }

    @Override
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    @Override
    public void open(FrameHandler handler) {
    }

    @Override
    public void send(SiteId to, byte[] frame) {
        send(to, frame, Precedence.ROUTINE);
    }

    @Override
    public void send(SiteId to, byte[] frame, Precedence urgency) {
        sent.add(new Sent(frame, urgency));
    }

    /** The frames handed over so far, in order. */
    List<byte[]> frames() {
        return sent.stream().map(Sent::frame).toList();
    }

    @Override
    public @Nullable Precedence urgentFrom() {
        return urgentFrom;
    }

    @Override
    public long unacknowledgedBytes(SiteId to) {
        return unacknowledgedBytes;
    }

    @Override
    public Duration roundTrip(SiteId to) {
        return roundTrip;
    }

    @Override
    public LinkState state(SiteId to) {
        return LinkState.UP;
    }

    @Override
    public Map<String, Object> details() {
        return Map.of();
    }

    @Override
    public void close() {
    }
}

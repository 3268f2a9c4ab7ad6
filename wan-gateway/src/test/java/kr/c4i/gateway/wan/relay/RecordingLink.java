package kr.c4i.gateway.wan.relay;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;

/** A link to one peer that is up and keeps every frame handed to it, for tests of the engine on a real store. */
final class RecordingLink implements WanLink {

    final List<byte[]> frames = new CopyOnWriteArrayList<>();
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
        return 64 * 1024;
    }

    @Override
    public void open(FrameHandler handler) {
    }

    @Override
    public void send(SiteId to, byte[] frame) {
        frames.add(frame);
    }

    @Override
    public long unacknowledgedBytes(SiteId to) {
        return 0;
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

package kr.c4i.gateway.core.link;

import java.util.Objects;

/**
 * One frame as a {@link WanLink} received it: from which peer site, and the bytes that peer's gateway handed to
 * {@link WanLink#send}.
 */
public record ReceivedFrame(SiteId from, byte[] bytes) {

    public ReceivedFrame {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(bytes, "bytes");
    }
}

package kr.c4i.gateway.wan.policy;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/** What the relay policy says about one message: relay it (perhaps superseding earlier reports), or drop it. */
public sealed interface PolicyDecision {

    /** Relay, with no supersede key. */
    Relay RELAY = new Relay(null);

    static Relay relay(@Nullable String supersedeKey) {
        return (supersedeKey == null) ? RELAY : new Relay(supersedeKey);
    }

    static Drop drop(DropReason reason) {
        return new Drop(reason);
    }

    /**
     * Relay the message.
     *
     * @param supersedeKey if not {@code null}, the store keeps only the latest waiting copy with this key per route
     *        and drops the older ones as {@link DropReason#SUPERSEDED}
     */
    record Relay(@Nullable String supersedeKey) implements PolicyDecision {
    }

    /**
     * Do not relay the message; the caller counts it under {@code reason.label()}.
     *
     * @param reason why
     */
    record Drop(DropReason reason) implements PolicyDecision {

        public Drop {
            Objects.requireNonNull(reason, "reason");
        }
    }
}

package kr.c4i.gateway.core.link;

import java.util.Objects;

/**
 * The name of one site: a LAN with its nodes and one WAN gateway. It becomes part of queue names, DDS partitions
 * and metric tags, so it is held to the charset of {@link kr.c4i.gateway.core.NodeId}.
 */
public record SiteId(String value) implements Comparable<SiteId> {

    public SiteId {
        Objects.requireNonNull(value, "value");
        if (!kr.c4i.gateway.core.NodeId.isValid(value)) {
            throw new IllegalArgumentException("Invalid site id '" + value
                    + "': use 1-63 lower-case letters, digits, '-' or '_', starting with a letter or digit");
        }
    }

    public static SiteId of(String value) {
        return new SiteId(value);
    }

    @Override
    public int compareTo(SiteId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}

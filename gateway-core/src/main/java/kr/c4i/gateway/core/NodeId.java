package kr.c4i.gateway.core;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of one gateway node (one C4I server and its bridge). It becomes part of queue names,
 * DDS partitions and metric tags, so it is restricted to a charset every one of those accepts.
 */
public record NodeId(String value) implements Comparable<NodeId> {

    private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

    public NodeId {
        Objects.requireNonNull(value, "value");
        if (!VALID.matcher(value).matches()) {
            throw new IllegalArgumentException("Invalid node id '" + value
                    + "': use 1-63 lower-case letters, digits, '-' or '_', starting with a letter or digit");
        }
    }

    public static NodeId of(String value) {
        return new NodeId(value);
    }

    @Override
    public int compareTo(NodeId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}

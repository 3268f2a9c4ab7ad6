package kr.c4i.gateway.core;

import java.util.Objects;

/**
 * The name of one gateway node (one C4I server and its bridge). It becomes part of queue names,
 * DDS partitions and metric tags, so it is restricted to a charset every one of those accepts.
 */
public record NodeId(String value) implements Comparable<NodeId> {

    public NodeId {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw new IllegalArgumentException("Invalid node id '" + value
                    + "': use 1-63 lower-case letters, digits, '-' or '_', starting with a letter or digit");
        }
    }

    /**
     * Whether {@code value} is 1-63 lower-case letters, digits, '-' or '_', starting with a letter or digit: the
     * charset of node and site ids. Checked by hand: ids are read with every envelope.
     */
    public static boolean isValid(String value) {
        int length = value.length();
        if (length == 0 || length > 63) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alphanumeric && (i == 0 || (c != '-' && c != '_'))) {
                return false;
            }
        }
        return true;
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

package kr.c4i.gateway.core.transport;

import java.util.Map;

/** A transport's own view of whether it can move messages, with details for a health endpoint. */
public record TransportHealth(boolean up, Map<String, Object> details) {

    public TransportHealth {
        details = Map.copyOf(details);
    }

    public static TransportHealth up(Map<String, Object> details) {
        return new TransportHealth(true, details);
    }

    public static TransportHealth down(Map<String, Object> details) {
        return new TransportHealth(false, details);
    }
}

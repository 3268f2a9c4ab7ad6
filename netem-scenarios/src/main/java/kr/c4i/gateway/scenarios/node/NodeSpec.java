package kr.c4i.gateway.scenarios.node;

import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * One node of a deployment: where it runs and the bridge properties it gets.
 *
 * @param id node id, {@code n<host>}
 * @param host the host namespace it runs in
 * @param address the host's address
 * @param transport the node's transport
 * @param properties bridge properties, in order
 */
public record NodeSpec(String id, int host, String address, TransportKind transport, Map<String, String> properties) {

    public NodeSpec {
        properties = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
    }

    /** The node's properties as the arguments after {@code --}. */
    public List<String> bridgeArguments() {
        return properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    public static String idOf(int host) {
        return "n" + host;
    }
}

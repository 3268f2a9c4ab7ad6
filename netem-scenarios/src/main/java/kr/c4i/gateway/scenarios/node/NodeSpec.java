package kr.c4i.gateway.scenarios.node;

import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * One node of a deployment: where it runs and what it is launched with.
 *
 * @param id node id, {@code n<host>}
 * @param host the host namespace it runs in
 * @param address the host's address
 * @param transport the node's transport
 * @param launch its bridge's properties, secrets included
 */
public record NodeSpec(String id, int host, String address, TransportKind transport, NodeLaunch launch) {

    /** The bridge properties that go on the command line (no secrets), in order. */
    public Map<String, String> properties() {
        return launch.publicProperties();
    }

    /**
     * The arguments after {@code --}: the command line's properties but the id and transport, which the
     * {@code node} command takes as its own options.
     */
    public List<String> bridgeArguments() {
        return launch.arguments().stream().filter(a -> !a.startsWith("--gateway.node.id=")
                && !a.startsWith("--gateway.node.transport=")).toList();
    }

    /** The secrets, for the node process's environment. */
    public Map<String, String> environment() {
        return launch.environment();
    }

    public static String idOf(int host) {
        return "n" + host;
    }
}

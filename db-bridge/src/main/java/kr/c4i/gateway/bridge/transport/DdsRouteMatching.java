package kr.c4i.gateway.bridge.transport;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.PublishGate;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Holds publishing (and so readiness) until, for every type this node routes to other nodes, its writer sees as
 * many readers of other nodes as the routing table names destinations: a BEST_EFFORT message written before its
 * destination's reader matched never reaches it. Gives up after {@code gateway.dds.match-timeout}, logging the
 * routes still unmatched; the transport's health names them for as long as they stay so.
 */
final class DdsRouteMatching implements PublishGate {

    private static final Logger log = LoggerFactory.getLogger(DdsRouteMatching.class);
    private static final int LOGGED_ROUTES = 10;

    private final DdsTransport transport;
    private final Map<String, Integer> expected;
    private final Duration timeout;

    DdsRouteMatching(DdsTransport transport, Map<String, Integer> expected, Duration timeout) {
        this.transport = transport;
        this.expected = Map.copyOf(expected);
        this.timeout = timeout;
    }

    /** For each catalogue type: how many other nodes the routing table sends it to, where any. */
    static Map<String, Integer> expectedReaders(NodeId node, KmtfCatalogue catalogue, RoutingTable routing) {
        Map<String, Integer> expected = new TreeMap<>();
        for (MessageType type : catalogue.types()) {
            int destinations = routing.destinations(type.id(), node).size();
            if (destinations > 0) {
                expected.put(type.id(), destinations);
            }
        }
        return expected;
    }

    @Override
    public void await() throws InterruptedException {
        long start = System.nanoTime();
        Map<String, String> unmatched = transport.awaitRemoteReaders(expected, timeout);
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        if (unmatched.isEmpty()) {
            log.info("DDS routes matched: every reader of {} routed types found in {} ms", expected.size(), millis);
            return;
        }
        String shown = unmatched.entrySet().stream().limit(LOGGED_ROUTES).map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        log.warn("DDS routes unmatched after {} ms (gateway.dds.match-timeout): {} of {} routed types lack readers "
                + "of their destinations ({}{}); publishing anyway: BEST_EFFORT messages to them are dropped and "
                + "counted (gateway.dds.samples.dropped, reason unmatched) until they match, RELIABLE ones resent",
                millis, unmatched.size(), expected.size(), shown, unmatched.size() > LOGGED_ROUTES ? ", ..." : "");
    }
}

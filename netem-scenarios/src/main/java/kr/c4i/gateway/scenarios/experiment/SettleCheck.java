package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.scenarios.net.PortCounters;

/**
 * One look at whether a deployment is settled for a cell that measures steady transfer: every node reports its
 * routes up in its transport's health, and every host's link is quiet, or steady: over the last window it sent what
 * it sent over the window before, within {@link #STEADY_SHARE}. A node restarted moments before (the recovery
 * experiment's receiver) is READY with its routes unmatched, and its discovery (under DDS Security, six participants
 * of 270 writers each) would otherwise cross the cell's shaped link with the cell's messages. Routes alone do not
 * tell: they were up at the first look after a recovery while hosts sent up to 106 kB/s of discovery for 10 s more.
 * Nor does a fixed level: a settled DDS node still announces itself once per announcement interval (to the group;
 * to every participant index of each unicast peer as well when a run gives it peers, 12.7 kB/s from each of six
 * secured hosts), so a window spans one interval and a link is steady when what it carries stops changing.
 *
 * @param routesDown per node id, what its transport's health names as down (empty when all are up)
 * @param earlier per host, the bytes per second it sent over the window before the last (before a first look: the
 *        last window an earlier wait found steady); empty when there is none
 * @param last per host, the bytes per second it sent over the last window
 */
record SettleCheck(Map<String, List<String>> routesDown, Map<Integer, Double> earlier, Map<Integer, Double> last) {

    /** What a host may send and be quiet: a broker's pings, the ARP of an idle link. */
    static final double QUIET_BYTES_PER_SECOND = 2000;
    /** How much two windows of a steady link may differ, of the larger. */
    static final double STEADY_SHARE = 0.25;

    /** Cyclone's announcement interval, which the nodes keep unless the run sets {@link #ANNOUNCE_INTERVAL}. */
    static final Duration CYCLONE_ANNOUNCE_INTERVAL = Duration.ofSeconds(8);
    static final String ANNOUNCE_INTERVAL = "gateway.dds.announce-interval";
    /** A JMS node announces nothing; its window only has to outlast a burst of acknowledgements. */
    static final Duration JMS_WINDOW = Duration.ofSeconds(2);

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,6})(ms|s)");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    SettleCheck {
        routesDown = Map.copyOf(routesDown);
        earlier = Map.copyOf(earlier);
        last = Map.copyOf(last);
    }

    boolean routesUp() {
        return routesDown.values().stream().allMatch(List::isEmpty);
    }

    /** Every host quiet or steady over the last window. */
    boolean linksSteady() {
        return last.keySet().stream().allMatch(this::steady);
    }

    boolean settled() {
        return routesUp() && linksSteady();
    }

    /** The most any host sent per second over the last window. */
    double loudest() {
        return last.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private boolean steady(int host) {
        double now = last.get(host);
        Double before = earlier.get(host);
        return now <= QUIET_BYTES_PER_SECOND
                || before != null && Math.abs(now - before) <= STEADY_SHARE * Math.max(now, before);
    }

    /** What is not settled, node by node and host by host, e.g. {@code n2: LOGSITREP 0 of 1 readers}. */
    String unsettled() {
        List<String> parts = new ArrayList<>();
        routesDown.entrySet().stream().filter(e -> !e.getValue().isEmpty()).sorted(Map.Entry.comparingByKey())
                .forEach(e -> parts.add(e.getKey() + ": " + String.join(", ", e.getValue())));
        List<String> hosts = last.keySet().stream().sorted().filter(host -> !steady(host))
                .map(host -> String.format(Locale.ROOT, "host %d sending %,.0f B/s after %s", host, last.get(host),
                        earlier.containsKey(host) ? String.format(Locale.ROOT, "%,.0f", earlier.get(host))
                                : "nothing measured"))
                .toList();
        if (!hosts.isEmpty()) {
            parts.add(String.join(", ", hosts) + String.format(Locale.ROOT, " (a link is settled at %,.0f B/s or "
                    + "less, or within %.0f%% of the window before)", QUIET_BYTES_PER_SECOND, STEADY_SHARE * 100));
        }
        return String.join("; ", parts);
    }

    /**
     * How long one look at the links lasts: for DDS the nodes' announcement interval, so that each window holds each
     * node's announcements once.
     *
     * @param nodeProperties the bridge properties the run adds to every node
     * @throws IllegalArgumentException if the run sets the announcement interval in a form this does not read
     */
    static Duration window(TransportKind transport, Map<String, String> nodeProperties) {
        if (transport == TransportKind.JMS) {
            return JMS_WINDOW;
        }
        String interval = nodeProperties.get(ANNOUNCE_INTERVAL);
        if (interval == null) {
            return CYCLONE_ANNOUNCE_INTERVAL;
        }
        Matcher m = SIMPLE_DURATION.matcher(interval.strip());
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new IllegalArgumentException("Unable to read " + ANNOUNCE_INTERVAL + "=" + interval
                    + " for the harness's settle window: write it as e.g. 500ms or 2s");
        }
        long amount = Long.parseLong(m.group(1));
        return m.group(2).equals("s") ? Duration.ofSeconds(amount) : Duration.ofMillis(amount);
    }

    /**
     * What a node's transport health ({@code /actuator/health/transport}) names as down: the DDS routes whose writer
     * lacks readers of its destinations, the JMS peers whose bridge is not connected, the transport when not UP.
     *
     * @throws IllegalArgumentException if it is not the health endpoint's JSON
     */
    static List<String> routesDown(String transportHealth) {
        JsonNode health;
        try {
            health = JSON.readTree(transportHealth);
        }
        catch (JacksonException ex) {
            throw new IllegalArgumentException("Not a health answer: " + ex.getOriginalMessage(), ex);
        }
        String status = health.path("status").asString("");
        if (status.isEmpty()) {
            throw new IllegalArgumentException("Not a health answer (no status): " + transportHealth.strip());
        }
        List<String> down = new ArrayList<>();
        if (!status.equals("UP")) {
            down.add("transport " + status);
        }
        JsonNode details = health.path("details");
        details.path("unmatchedRoutes").forEachEntry((type, readers) -> down.add(type + " " + readers.asString()));
        details.path("peers").forEachEntry((peer, bridge) -> {
            if (!bridge.path("bridgeConnected").asBoolean(true)) {
                down.add("bridge to " + peer + " not connected");
            }
        });
        return down;
    }

    /** Bytes per second each host put on its link between two readings of its switch port. */
    static Map<Integer, Double> sentPerSecond(Map<Integer, PortCounters> before, Map<Integer, PortCounters> after,
            Duration window) {
        double seconds = window.toNanos() / 1e9;
        Map<Integer, Double> rates = new LinkedHashMap<>();
        after.forEach((host, counters) -> rates.put(host,
                counters.minus(before.getOrDefault(host, counters)).rxBytes() / seconds));
        return rates;
    }
}

package kr.c4i.gateway.scenarios.net;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A switch port's counters. Seen from the switch, {@code rx} is what the host sent (Ethernet headers included,
 * frames the loss rule later drops included) and {@code tx} is what the switch delivered to it.
 *
 * @param rxBytes bytes the host put on its link
 * @param rxPackets frames the host put on its link
 * @param txBytes bytes the switch sent to the host
 * @param txPackets frames the switch sent to the host
 */
public record PortCounters(long rxBytes, long rxPackets, long txBytes, long txPackets) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static final PortCounters ZERO = new PortCounters(0, 0, 0, 0);

    /** What happened between {@code earlier} and this reading. */
    public PortCounters minus(PortCounters earlier) {
        return new PortCounters(rxBytes - earlier.rxBytes, rxPackets - earlier.rxPackets, txBytes - earlier.txBytes,
                txPackets - earlier.txPackets);
    }

    /** Reads {@code ip -s -j link show}: interface name to counters. */
    public static Map<String, PortCounters> parse(String ipJson) {
        Map<String, PortCounters> ports = new LinkedHashMap<>();
        for (JsonNode link : JSON.readTree(ipJson)) {
            JsonNode stats = link.path("stats64");
            ports.put(link.path("ifname").asString(), new PortCounters(stats.path("rx").path("bytes").asLong(),
                    stats.path("rx").path("packets").asLong(), stats.path("tx").path("bytes").asLong(),
                    stats.path("tx").path("packets").asLong()));
        }
        return ports;
    }

    /**
     * Reads {@code nft -j list table netdev <loss>}: per port, the frames the loss chain saw and dropped. An empty
     * map when there is no loss table.
     */
    public static Map<String, LossCount> parseLossCounters(String nftJson) {
        Map<String, LossCount> counts = new LinkedHashMap<>();
        if (nftJson == null || nftJson.isBlank()) {
            return counts;
        }
        for (JsonNode item : JSON.readTree(nftJson).path("nftables")) {
            JsonNode rule = item.path("rule");
            if (rule.isMissingNode()) {
                continue;
            }
            String chain = rule.path("chain").asString();
            String comment = rule.path("comment").asString("");
            long packets = 0;
            for (JsonNode expr : rule.path("expr")) {
                if (expr.has("counter")) {
                    packets = expr.path("counter").path("packets").asLong();
                }
            }
            LossCount count = counts.getOrDefault(chain, new LossCount(0, 0));
            if (comment.equals("seen")) {
                count = new LossCount(packets, count.dropped());
            }
            else if (comment.equals("dropped")) {
                count = new LossCount(count.seen(), packets);
            }
            counts.put(chain, count);
        }
        return counts;
    }

    /**
     * Frames a loss chain saw and dropped.
     *
     * @param seen non-ARP frames the host sent
     * @param dropped of those, how many were dropped
     */
    public record LossCount(long seen, long dropped) {

        public LossCount minus(LossCount earlier) {
            return new LossCount(seen - earlier.seen, dropped - earlier.dropped);
        }

        /** Dropped share, or NaN when nothing was seen. */
        public double ratio() {
            return seen == 0 ? Double.NaN : (double) dropped / seen;
        }
    }
}

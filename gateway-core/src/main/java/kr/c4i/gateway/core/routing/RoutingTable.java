package kr.c4i.gateway.core.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Category;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Which nodes subscribe to which KMTF types. Built once from configuration, where each node lists
 * patterns: {@code *} (every type), {@code category:<name>} (every type of a catalogue category) or a
 * type id. Resolved against the catalogue up front, so a misspelt pattern fails at start-up, not at
 * the first message.
 */
public final class RoutingTable {

    public static final String ALL = "*";
    public static final String CATEGORY_PREFIX = "category:";

    private final Map<String, List<NodeId>> subscribersByType;
    private final Map<NodeId, Set<String>> typesByNode;

    private RoutingTable(Map<String, List<NodeId>> subscribersByType, Map<NodeId, Set<String>> typesByNode) {
        this.subscribersByType = subscribersByType;
        this.typesByNode = typesByNode;
    }

    /**
     * @param subscriptions node to its subscription patterns
     * @throws IllegalArgumentException naming every pattern that matches nothing in the catalogue
     */
    public static RoutingTable of(Map<NodeId, List<String>> subscriptions, KmtfCatalogue catalogue) {
        Map<String, List<NodeId>> byType = new LinkedHashMap<>();
        Map<NodeId, Set<String>> byNode = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        new TreeMap<>(subscriptions).forEach((node, patterns) -> {
            Set<String> types = new LinkedHashSet<>();
            for (String pattern : patterns) {
                List<MessageType> matched = resolve(pattern.trim(), catalogue);
                if (matched.isEmpty()) {
                    problems.add("node " + node + ": subscription '" + pattern + "' matches no catalogue type");
                }
                matched.forEach(t -> types.add(t.id()));
            }
            byNode.put(node, Set.copyOf(types));
            types.forEach(t -> byType.computeIfAbsent(t, k -> new ArrayList<>()).add(node));
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid routing table: " + String.join("; ", problems));
        }
        byType.replaceAll((t, nodes) -> List.copyOf(nodes));
        return new RoutingTable(Map.copyOf(byType), byNode);
    }

    private static List<MessageType> resolve(String pattern, KmtfCatalogue catalogue) {
        if (pattern.equals(ALL)) {
            return catalogue.types();
        }
        if (pattern.startsWith(CATEGORY_PREFIX)) {
            Category category;
            try {
                category = Category.parse(pattern.substring(CATEGORY_PREFIX.length()));
            }
            catch (IllegalArgumentException ex) {
                return List.of();
            }
            return catalogue.types().stream().filter(t -> t.category() == category).toList();
        }
        return catalogue.find(pattern).map(List::of).orElse(List.of());
    }

    /** The nodes that should receive a message of this type from {@code origin}; never the origin itself. */
    public List<NodeId> destinations(String typeId, NodeId origin) {
        List<NodeId> nodes = subscribersByType.getOrDefault(typeId, List.of());
        return nodes.contains(origin) ? nodes.stream().filter(n -> !n.equals(origin)).toList() : nodes;
    }

    /** The type ids a node subscribes to; empty for a node that only sends. */
    public Set<String> subscriptions(NodeId node) {
        return typesByNode.getOrDefault(node, Set.of());
    }

    public Set<NodeId> nodes() {
        return new TreeSet<>(typesByNode.keySet());
    }
}

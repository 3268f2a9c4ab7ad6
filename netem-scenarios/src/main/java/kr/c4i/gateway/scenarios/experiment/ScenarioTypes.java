package kr.c4i.gateway.scenarios.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * The KMTF types each experiment sends, all RELIABLE, and the routing tables that follow. One type per N of
 * 1:N lets one deployment of six nodes serve every N: the type for N=3 is routed to three nodes only.
 *
 * @param recovery type of the recovery experiment's messages
 * @param loss type of the loss experiment's messages
 * @param fanOut per N, the type routed to exactly N subscribers
 */
public record ScenarioTypes(String recovery, String loss, SortedMap<Integer, String> fanOut) {

    private static final List<String> PREFERRED = List.of("SITREP", "LOGSITREP", "AIRSITREP", "MARSITREP", "ENSITREP",
            "NBCSITREP", "CYBERSITREP", "DAILYSITREP");

    public ScenarioTypes {
        fanOut = new TreeMap<>(fanOut);
    }

    /** Picks distinct RELIABLE types big enough for the plan's messages, the SITREP family first. */
    public static ScenarioTypes choose(KmtfCatalogue catalogue, RunPlan plan) {
        int size = Math.max(plan.recoverySize(), Math.max(plan.fanOutSize(), plan.lossSize()));
        List<String> candidates = new ArrayList<>();
        for (String id : PREFERRED) {
            catalogue.find(id).filter(t -> usable(t, size)).ifPresent(t -> candidates.add(t.id()));
        }
        catalogue.types().stream().filter(t -> usable(t, size) && !candidates.contains(t.id()))
                .forEach(t -> candidates.add(t.id()));
        int needed = 2 + plan.subscribers().size();
        if (candidates.size() < needed) {
            throw new IllegalArgumentException("the catalogue has " + candidates.size() + " RELIABLE types for "
                    + size + "-byte messages, the plan needs " + needed);
        }
        SortedMap<Integer, String> fanOut = new TreeMap<>();
        int next = 2;
        for (int n : plan.subscribers().stream().sorted().distinct().toList()) {
            fanOut.put(n, n == 1 ? candidates.get(1) : candidates.get(next++));
        }
        return new ScenarioTypes(candidates.get(0), candidates.get(1), fanOut);
    }

    /**
     * The routing table of a deployment: host 2 receives the recovery and loss types (when it runs those) and every
     * N's type (when it runs 1:N); host {@code h >= 3} receives the type of every N with {@code h <= N + 1}.
     */
    public Map<Integer, List<String>> routing(RunPlan.Deployment deployment) {
        Map<Integer, List<String>> routing = new LinkedHashMap<>();
        List<String> second = new ArrayList<>();
        if (deployment.runs(ExperimentKind.RECOVERY)) {
            second.add(recovery);
        }
        if (deployment.runs(ExperimentKind.LOSS)) {
            second.add(loss);
        }
        routing.put(2, second);
        if (deployment.runs(ExperimentKind.FANOUT)) {
            int maxN = fanOut.isEmpty() ? 0 : fanOut.lastKey();
            for (int host = 2; host <= maxN + 1; host++) {
                List<String> types = routing.computeIfAbsent(host, h -> new ArrayList<>());
                for (Map.Entry<Integer, String> e : fanOut.entrySet()) {
                    if (host <= e.getKey() + 1 && !types.contains(e.getValue())) {
                        types.add(e.getValue());
                    }
                }
            }
        }
        return routing;
    }

    /** Per type a deployment sends, the message size its experiment uses (the warm-up sends that size). */
    public Map<String, Integer> sizes(RunPlan plan, RunPlan.Deployment deployment) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        if (deployment.runs(ExperimentKind.RECOVERY)) {
            sizes.put(recovery, plan.recoverySize());
        }
        if (deployment.runs(ExperimentKind.LOSS)) {
            sizes.put(loss, plan.lossSize());
        }
        if (deployment.runs(ExperimentKind.FANOUT)) {
            fanOut.values().forEach(t -> sizes.putIfAbsent(t, plan.fanOutSize()));
        }
        return sizes;
    }

    private static boolean usable(MessageType type, int size) {
        return type.reliability() == Reliability.RELIABLE && type.maxSize() >= size;
    }
}

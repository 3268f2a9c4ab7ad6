package kr.c4i.gateway.custody;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The last known position of a message in one line, from its steps oldest first: the last step (with the others of
 * the same statement, e.g. a copy stored for two routes), or once every destination has accounted for it the last of
 * theirs; and the destinations a node sent it to that no step accounts for yet.
 */
final class CustodyPosition {

    /** A gateway's route to its own LAN, as its steps name it. */
    private static final String LAN = "@lan";

    private CustodyPosition() {
    }

    static String of(List<CustodyStep> steps, List<String> asked) {
        if (steps.isEmpty()) {
            return "not seen here (asked " + String.join(", ", asked) + ")";
        }
        CustodyStep last = whereItIs(steps);
        Set<String> peers = new LinkedHashSet<>();
        for (CustodyStep step : steps) {
            if (sameStatement(step, last)) {
                peers.addAll(step.peers());
            }
        }
        String where = describe(last, List.copyOf(peers));
        if (sends(last)) {
            return where;
        }
        List<String> stillStored = stillStored(steps, last);
        if (!stillStored.isEmpty()) {
            where += "; " + String.join("; ", stillStored);
        }
        List<String> unaccounted = unaccounted(steps);
        return unaccounted.isEmpty() ? where : where + "; not yet seen at " + String.join(", ", unaccounted);
    }

    /**
     * The step that says where the message is: the last, unless every destination of the nodes' sends has accounted
     * for it, then the last of theirs. A gateway logs that custody passed (acknowledged, delivered onto its LAN) after
     * the next hop took the message, which by then may be in the destination's inbox already: the clock puts that
     * step after the delivery it says less than.
     */
    private static CustodyStep whereItIs(List<CustodyStep> steps) {
        boolean sent = steps.stream().anyMatch(step -> "node".equals(step.hopKind()) && sends(step));
        if (!sent || !unaccounted(steps).isEmpty()) {
            return furthest(steps);
        }
        return steps.reversed().stream().filter(step -> "node".equals(step.hopKind()) && !sends(step)).findFirst()
                .orElse(steps.getLast());
    }

    /**
     * The last step, unless it is a gateway's custody passing to the next hop's gateway whose own steps are known
     * (asked, or forwarded to this site): the last of those, which the clock may put before the acknowledgement.
     */
    private static CustodyStep furthest(List<CustodyStep> steps) {
        CustodyStep last = steps.getLast();
        if (!"site".equals(last.hopKind()) || !last.event().equals(CustodyEvent.ACKNOWLEDGED.label())) {
            return last;
        }
        return steps.reversed().stream()
                .filter(step -> "site".equals(step.hopKind()) && last.peers().contains(step.hop())).findFirst()
                .orElse(last);
    }

    /**
     * The copies a gateway stored that no later step of its own has resolved (acknowledged, delivered, expired or
     * dropped), other than those the last step already names: a message stored for two routes and acknowledged on one
     * still waits on the other.
     */
    private static List<String> stillStored(List<CustodyStep> steps, CustodyStep last) {
        Map<String, Set<String>> waiting = new LinkedHashMap<>();
        for (CustodyStep step : steps) {
            if (!"site".equals(step.hopKind())) {
                continue;
            }
            Set<String> routes = waiting.computeIfAbsent(step.hop(), h -> new LinkedHashSet<>());
            if (step.event().equals(CustodyEvent.STORED.label())) {
                routes.addAll(step.peers());
            }
            else {
                routes.removeAll(step.peers());
            }
        }
        if (last.event().equals(CustodyEvent.STORED.label())) {
            waiting.remove(last.hop());
        }
        List<String> lines = new ArrayList<>();
        waiting.forEach((hop, routes) -> {
            if (!routes.isEmpty()) {
                lines.add("still stored at gateway " + hop + " for " + String.join(", ", routes.stream()
                        .map(r -> LAN.equals(r) ? "its LAN" : r).toList()));
            }
        });
        return lines;
    }

    /** A node's send: its peers are the destinations it names. */
    private static boolean sends(CustodyStep step) {
        return step.event().equals(CustodyEvent.SENT.label()) || step.event().equals(CustodyEvent.RESENT.label());
    }

    private static boolean sameStatement(CustodyStep step, CustodyStep last) {
        return step.at().equals(last.at()) && step.hop().equals(last.hop()) && step.event().equals(last.event());
    }

    /**
     * The destinations of the nodes' sends that nothing has accounted for: no step in their own databases, no
     * receipt or refusal at the sender naming them.
     */
    private static List<String> unaccounted(List<CustodyStep> steps) {
        Set<String> destinations = new LinkedHashSet<>();
        Set<String> accounted = new LinkedHashSet<>();
        for (CustodyStep step : steps) {
            if (!"node".equals(step.hopKind())) {
                continue;
            }
            CustodyEvent event = CustodyEvent.find(step.event()).orElse(null);
            if (sends(step)) {
                destinations.addAll(step.peers());
            }
            else if (event == CustodyEvent.RECEIPTED || event == CustodyEvent.REFUSED) {
                accounted.addAll(step.peers());
            }
            accounted.add(step.hop());
        }
        List<String> unaccounted = new ArrayList<>(destinations);
        unaccounted.removeAll(accounted);
        return unaccounted;
    }

    private static String describe(CustodyStep step, List<String> peers) {
        String at = time(step.at());
        String to = String.join(", ", peers);
        String self = step.hopKind() + " " + step.hop();
        String gateway = "gateway " + step.hop();
        String why = step.detail() == null ? "" : ": " + step.detail();
        CustodyEvent event = CustodyEvent.find(step.event()).orElse(null);
        if (event == null) {
            return step.event() + " at " + self + " at " + at + why;
        }
        return switch (event) {
            case SENT -> "jms".equals(step.link()) ? "in " + self + "'s broker for " + to + " since " + at
                    + " (store-and-forward)"
                    : "sent by " + self + " over " + step.link() + " to " + to + " at " + at + ", not yet receipted";
            case RESENT -> "sent again by " + self + " over " + step.link() + " to " + to + " at " + at
                    + ", not yet receipted";
            case RECEIPTED -> "in " + to + "'s inbox: receipted to " + self + " at " + at;
            case DELIVERED -> "site".equals(step.hopKind()) ? "delivered onto site " + step.hop() + "'s LAN at " + at
                    : "delivered into " + step.hop() + "'s inbox at " + at;
            case QUARANTINED -> "quarantined at " + self + " at " + at + why;
            case REFUSED -> "refused at " + self + (peers.isEmpty() ? "" : " for " + to) + " at " + at + why;
            case STORED -> "stored at " + gateway + " since " + at + ", not yet " + String.join(" or ", peers.stream()
                    .map(p -> LAN.equals(p) ? "delivered onto its LAN" : "acknowledged by " + p).toList());
            case ACKNOWLEDGED -> "custody passed from " + gateway + " to " + to + "'s gateway at " + at;
            case EXPIRED -> "expired at " + gateway + " at " + at + (peers.isEmpty() ? "" : " (was for " + to + ")");
            case DROPPED -> "dropped at " + gateway + " at " + at + why;
        };
    }

    /** To the second, in UTC: what an operator compares across sites. */
    private static String time(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}

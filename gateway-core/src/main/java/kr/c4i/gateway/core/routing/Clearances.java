package kr.c4i.gateway.core.routing;

import java.util.Collection;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import kr.c4i.gateway.kmtf.text.Classification;

/**
 * The clearance of each destination (a node, or at the WAN gateway a site), by name: the highest classification it
 * may receive. A destination the configuration does not list has the default clearance; the services make that
 * {@link Classification#UNCLASSIFIED}, so a destination nobody cleared gets nothing classified (fail-safe).
 * Immutable.
 */
public final class Clearances {

    /**
     * Levels of the labels seen: a relay checks every message against one or more clearances, and parsing the line
     * each time took about 5% of each of a WAN gateway's relay threads. Labels are few in practice; a bound keeps
     * odd ones from growing it.
     */
    private static final Map<String, Classification> LEVELS = new ConcurrentHashMap<>();
    private static final int MAX_LABELS_KEPT = 1024;

    private static final Clearances UNRESTRICTED = new Clearances(Map.of(), Classification.TOP_SECRET);

    private final Map<String, Classification> byName;
    private final Classification unlisted;

    private Clearances(Map<String, Classification> byName, Classification unlisted) {
        this.byName = Map.copyOf(byName);
        this.unlisted = unlisted;
    }

    /** Every destination cleared for everything: for code paths and tests that enforce no clearance. */
    public static Clearances unrestricted() {
        return UNRESTRICTED;
    }

    /**
     * @param configured destination name to its level as configuration writes it, e.g. {@code b=CONFIDENTIAL}
     * @param unlisted the clearance of a destination not in {@code configured}
     * @param property the property that lists them, to name in the error, e.g. {@code gateway.routing.clearances}
     * @throws IllegalArgumentException naming every entry whose level is not a classification level
     */
    public static Clearances of(Map<String, String> configured, Classification unlisted, String property) {
        Map<String, Classification> levels = new TreeMap<>();
        StringBuilder problems = new StringBuilder();
        new TreeMap<>(configured).forEach((name, level) -> {
            try {
                levels.put(name, Classification.parse(level));
            }
            catch (IllegalArgumentException ex) {
                problems.append(problems.isEmpty() ? "" : "; ").append(property).append('.').append(name)
                        .append(": ").append(ex.getMessage());
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid clearances: " + problems);
        }
        return new Clearances(levels, unlisted);
    }

    /** The clearance of a destination. */
    public Classification of(String destination) {
        return this.byName.getOrDefault(destination, this.unlisted);
    }

    /** Whether {@code destination} may receive a message of {@code level}. */
    public boolean clears(String destination, Classification level) {
        return of(destination).dominates(level);
    }

    /**
     * Whether {@code destination} may receive a message labelled {@code label} (an envelope's classification line).
     * A label that is not a classification line is taken as {@link Classification#TOP_SECRET}: what cannot be
     * read is not sent where it might not belong.
     */
    public boolean clearsLabel(String destination, String label) {
        return clears(destination, levelOfLabel(label));
    }

    /** The level of an envelope's classification label; {@link Classification#TOP_SECRET} if it is not one. */
    public static Classification levelOfLabel(String label) {
        Classification known = LEVELS.get(label);
        if (known != null) {
            return known;
        }
        Classification level;
        try {
            level = Classification.ofLine(label);
        }
        catch (IllegalArgumentException ex) {
            level = Classification.TOP_SECRET;
        }
        if (LEVELS.size() >= MAX_LABELS_KEPT) {
            LEVELS.clear();
        }
        LEVELS.put(label, level);
        return level;
    }

    /** Which of {@code destinations} the configuration gives no clearance, so they have the default. */
    public SortedSet<String> unlisted(Collection<String> destinations) {
        SortedSet<String> missing = new TreeSet<>(destinations);
        missing.removeAll(this.byName.keySet());
        return missing;
    }

    /** The default clearance of destinations not listed. */
    public Classification unlistedClearance() {
        return this.unlisted;
    }

    @Override
    public String toString() {
        return "Clearances" + new TreeMap<>(this.byName) + ", others " + this.unlisted;
    }
}

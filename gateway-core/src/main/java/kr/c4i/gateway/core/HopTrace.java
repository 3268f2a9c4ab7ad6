package kr.c4i.gateway.core;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kr.c4i.gateway.core.link.SiteId;

/**
 * The hops a message has passed, carried with it (as X.400's trace information is): each node or site, what it did
 * and when, so the receiving node knows the whole path even when the sites before it cannot be reached. Bounded: past
 * {@link #MAX_HOPS} the oldest hops after the origin's are left out and counted, so a trace never grows without
 * limit on a long route.
 *
 * <p>Its text ({@link #format}, what the LAN transports carry and the inbox keeps) gives each hop's time as
 * milliseconds after the message's creation, which keeps it short on narrow links:
 * {@code node a sent +3ms; site s1 relayed +17ms; site s2 relayed +340ms}. Times are each hop's own clock.
 *
 * @param hops the hops, in the order the message passed them
 * @param omitted how many hops were left out after the first to keep the bound
 */
public record HopTrace(List<Hop> hops, int omitted) {

    /** Most hops a trace keeps. */
    public static final int MAX_HOPS = 16;

    /** The trace of a message no hop has stamped (or one from a sender that carries none). */
    public static final HopTrace EMPTY = new HopTrace(List.of(), 0);

    private static final String SEPARATOR = "; ";
    private static final Pattern HOP = Pattern.compile("(node|site) (\\S+) (sent|relayed|delivered) ([+-]\\d{1,19})ms");
    private static final Pattern OMITTED = Pattern.compile("\\((\\d{1,9}) hops? omitted\\)");

    public HopTrace {
        hops = List.copyOf(hops);
        if (hops.size() > MAX_HOPS) {
            throw new IllegalArgumentException("A trace keeps at most " + MAX_HOPS + " hops, not " + hops.size());
        }
        if (omitted < 0 || (omitted > 0 && hops.isEmpty())) {
            throw new IllegalArgumentException("A trace cannot leave out " + omitted + " hops of " + hops.size());
        }
    }

    /** What one node or site did with the message, and when. */
    public enum Action {
        /** The origin node's bridge took it from the outbox and sent it. */
        SENT,
        /** A site's WAN gateway took custody of it to pass it on (towards another site or onto its LAN). */
        RELAYED,
        /** A node wrote it into its inbox. */
        DELIVERED;

        private final String label = name().toLowerCase(Locale.ROOT);

        public String label() {
            return label;
        }
    }

    /**
     * One hop.
     *
     * @param kind {@code node} or {@code site}
     * @param name the node's or site's id
     * @param action what it did
     * @param at when, by its clock
     */
    public record Hop(Kind kind, String name, Action action, Instant at) {

        public Hop {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(at, "at");
            // The ids' own checks: a name never holds the text's separators.
            name = kind == Kind.NODE ? NodeId.of(name).value() : SiteId.of(name).value();
        }

        public static Hop node(NodeId node, Action action, Instant at) {
            return new Hop(Kind.NODE, node.value(), action, at);
        }

        public static Hop site(SiteId site, Action action, Instant at) {
            return new Hop(Kind.SITE, site.value(), action, at);
        }

        /** E.g. {@code site s1}. */
        public String place() {
            return kind.label() + " " + name;
        }
    }

    /** Whether a hop is a node (a C4I server's bridge) or a site (its WAN gateway). */
    public enum Kind {
        NODE, SITE;

        private final String label = name().toLowerCase(Locale.ROOT);

        public String label() {
            return label;
        }
    }

    public boolean isEmpty() {
        return hops.isEmpty();
    }

    /** This trace with one more hop at its end; past the bound the oldest hop after the first is left out. */
    public HopTrace with(Hop hop) {
        List<Hop> next = new ArrayList<>(hops.size() + 1);
        next.addAll(hops);
        next.add(hop);
        int left = omitted;
        if (next.size() > MAX_HOPS) {
            next.remove(1);
            left++;
        }
        return new HopTrace(next, left);
    }

    /** The text form, times relative to {@code createdAt}; empty for an empty trace. */
    public String format(Instant createdAt) {
        StringBuilder text = new StringBuilder(hops.size() * 24);
        for (int i = 0; i < hops.size(); i++) {
            if (i > 0) {
                text.append(SEPARATOR);
            }
            if (i == 1 && omitted > 0) {
                text.append('(').append(omitted).append(omitted == 1 ? " hop" : " hops").append(" omitted)")
                        .append(SEPARATOR);
            }
            Hop hop = hops.get(i);
            long millis = millisAfter(createdAt, hop.at());
            text.append(hop.kind().label()).append(' ').append(hop.name()).append(' ').append(hop.action().label())
                    .append(' ').append(millis < 0 ? "" : "+").append(millis).append("ms");
        }
        return text.toString();
    }

    /**
     * A hop's time as the trace keeps it: whole milliseconds from {@code from} to {@code to}, towards zero as
     * {@link Duration#toMillis} counts them.
     *
     * @throws ArithmeticException if they do not fit in 64 bits
     */
    public static long millisAfter(Instant from, Instant to) {
        long seconds = to.getEpochSecond() - from.getEpochSecond();
        long nanos = to.getNano() - from.getNano();
        if (seconds < 0 && nanos > 0) {
            seconds++;
            nanos -= 1_000_000_000L;
        }
        else if (seconds > 0 && nanos < 0) {
            seconds--;
            nanos += 1_000_000_000L;
        }
        return Math.addExact(Math.multiplyExact(seconds, 1000), nanos / 1_000_000);
    }

    /**
     * Reads the text {@link #format} writes; an empty text is the empty trace.
     *
     * @throws IllegalArgumentException naming the part that is not a hop
     */
    public static HopTrace parse(String text, Instant createdAt) {
        if (text.isEmpty()) {
            return EMPTY;
        }
        List<Hop> hops = new ArrayList<>();
        int omitted = 0;
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf(SEPARATOR, start);
            String part = text.substring(start, end < 0 ? text.length() : end);
            start = end < 0 ? text.length() + 1 : end + SEPARATOR.length();
            Matcher hop = HOP.matcher(part);
            if (hop.matches()) {
                Kind kind = "node".equals(hop.group(1)) ? Kind.NODE : Kind.SITE;
                Action action = switch (hop.group(3)) {
                    case "sent" -> Action.SENT;
                    case "relayed" -> Action.RELAYED;
                    default -> Action.DELIVERED;
                };
                hops.add(new Hop(kind, hop.group(2), action, at(createdAt, hop.group(4), part)));
            }
            else if (hops.size() == 1 && omitted == 0 && OMITTED.matcher(part).matches()) {
                omitted = Integer.parseInt(part.substring(1, part.indexOf(' ')));
            }
            else {
                throw new IllegalArgumentException("Invalid trace: '" + abbreviate(part)
                        + "' is not a hop such as 'site s1 relayed +17ms'");
            }
            if (hops.size() > MAX_HOPS) {
                throw new IllegalArgumentException("Invalid trace: more than " + MAX_HOPS + " hops");
            }
        }
        return new HopTrace(hops, omitted);
    }

    // Any creation time a transport carries and any hop clock: a message of 1700 sent today is 10^13 ms old.
    private static Instant at(Instant createdAt, String offset, String part) {
        try {
            return createdAt.plusMillis(Long.parseLong(offset));
        }
        catch (ArithmeticException | DateTimeException | NumberFormatException ex) {
            throw new IllegalArgumentException("Invalid trace: '" + abbreviate(part) + "' is no time after "
                    + createdAt, ex);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}

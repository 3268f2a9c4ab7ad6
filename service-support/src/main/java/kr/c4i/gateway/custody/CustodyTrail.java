package kr.c4i.gateway.custody;

import java.util.Comparator;
import java.util.List;

/**
 * Where a message is, as far as the databases asked know: every step they logged, oldest first, and the last known
 * position in one line. Steps of several databases are ordered by their servers' clocks.
 *
 * @param messageId the message asked about
 * @param asked whose databases were asked, e.g. {@code node a}
 * @param steps what they logged of it
 * @param position the last known position, or that none of them has seen it
 */
public record CustodyTrail(String messageId, List<String> asked, List<CustodyStep> steps, String position) {

    public CustodyTrail {
        asked = List.copyOf(asked);
        steps = List.copyOf(steps);
    }

    /** The trail of what these databases logged of the message, in any order. */
    public static CustodyTrail of(String messageId, List<String> asked, List<CustodyStep> steps) {
        List<CustodyStep> ordered = steps.stream().sorted(Comparator.comparing(CustodyStep::at)).toList();
        return new CustodyTrail(messageId, asked, ordered, CustodyPosition.of(ordered, asked));
    }

    public boolean seen() {
        return !steps.isEmpty();
    }
}

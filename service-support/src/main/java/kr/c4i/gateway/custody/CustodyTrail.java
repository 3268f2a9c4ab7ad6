package kr.c4i.gateway.custody;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import kr.c4i.gateway.core.HopTrace;

/**
 * Where a message is, as far as the databases asked know: every step they logged, oldest first, the hops it carried
 * into the inboxes it reached, and the last known position in one line. Steps of several databases are ordered by
 * their servers' clocks.
 *
 * @param messageId the message asked about
 * @param asked whose databases were asked, e.g. {@code node a}
 * @param steps what they logged of it
 * @param carried the hops it carried into each inbox asked that has it: its whole path, even through sites not asked
 *        or not reachable
 * @param position the last known position, or that none of them has seen it
 */
public record CustodyTrail(String messageId, List<String> asked, List<CustodyStep> steps, List<Carried> carried,
        String position) {

    public CustodyTrail {
        asked = List.copyOf(asked);
        steps = List.copyOf(steps);
        carried = List.copyOf(carried);
    }

    /**
     * The hops a message carried into one node's inbox.
     *
     * @param place whose inbox, e.g. {@code node c}
     * @param trace the hops, this node's delivery last
     */
    public record Carried(String place, HopTrace trace) {
    }

    /** The trail of what these databases logged of the message, in any order. */
    public static CustodyTrail ofSteps(String messageId, List<String> asked, List<CustodyStep> steps) {
        return of(messageId, asked, steps, List.of());
    }

    /** The trail of what these databases answered, each named as its answer names it. */
    public static CustodyTrail of(String messageId, List<CustodyLogReader.Answer> answers) {
        return of(messageId, answers.stream().map(CustodyLogReader.Answer::place).toList(), answers);
    }

    /** The trail of what these databases answered; {@code asked} names them as the caller wants them named. */
    public static CustodyTrail of(String messageId, List<String> asked, List<CustodyLogReader.Answer> answers) {
        List<CustodyStep> steps = new ArrayList<>();
        List<Carried> carried = new ArrayList<>();
        for (CustodyLogReader.Answer answer : answers) {
            steps.addAll(answer.steps());
            if (answer.carried() != null) {
                carried.add(new Carried(answer.place(), answer.carried()));
            }
        }
        return of(messageId, asked, steps, carried);
    }

    private static CustodyTrail of(String messageId, List<String> asked, List<CustodyStep> steps,
            List<Carried> carried) {
        // A step a far site's gateway forwarded to the origin's is in both logs: asked both, it is one step.
        List<CustodyStep> ordered = steps.stream().distinct().sorted(Comparator.comparing(CustodyStep::at)).toList();
        String position = ordered.isEmpty() && !carried.isEmpty()
                ? "in " + carried.getFirst().place() + "'s inbox" + delivered(carried.getFirst().trace())
                        + "; no custody steps logged of it (pruned, or the log was off)"
                : CustodyPosition.of(ordered, asked);
        return new CustodyTrail(messageId, asked, ordered, carried, position);
    }

    private static String delivered(HopTrace trace) {
        return trace.isEmpty() ? "" : " since " + trace.hops().getLast().at();
    }

    public boolean seen() {
        return !steps.isEmpty() || !carried.isEmpty();
    }
}

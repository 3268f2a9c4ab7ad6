package kr.c4i.gateway.wan.policy;

import java.util.List;

/** A relay policy that cannot be used: it does not parse, or names types or categories the catalogue lacks. */
public class PolicyException extends RuntimeException {

    private final List<String> problems;

    /**
     * @param source where the policy came from, such as its file name
     * @param problems every problem found, each naming its line and the offending value
     */
    public PolicyException(String source, List<String> problems) {
        super("Invalid relay policy " + source + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public PolicyException(String source, String problem, Throwable cause) {
        super("Invalid relay policy " + source + ": " + problem, cause);
        this.problems = List.of(problem);
    }

    /** Each problem, naming its line and the offending value. */
    public List<String> problems() {
        return this.problems;
    }
}

package kr.c4i.gateway.kmtf.catalogue;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The catalogue could not be loaded. Carries every problem found in the file, so that an operator can fix them all
 * in one edit instead of one per restart.
 */
public final class CatalogueException extends RuntimeException {

    private final List<Problem> problems;

    CatalogueException(String source, List<Problem> problems) {
        super("Unable to load the KMTF catalogue from " + source + ": " + problems.size()
                + (problems.size() == 1 ? " problem" : " problems")
                + problems.stream().map(Problem::toString).collect(Collectors.joining("\n  ", "\n  ", "")));
        this.problems = List.copyOf(problems);
    }

    CatalogueException(String source, Exception cause) {
        super("Unable to read the KMTF catalogue from " + source + ": " + cause.getMessage(), cause);
        this.problems = List.of(new Problem(source, 0, null, null, String.valueOf(cause.getMessage())));
    }

    /** Every problem, in file order. */
    public List<Problem> problems() {
        return this.problems;
    }

    /**
     * One thing wrong with the file.
     *
     * @param file where the catalogue came from
     * @param line 1-based line number, 0 when the problem concerns the whole file
     * @param column the column name, or {@code null} when the problem concerns the whole line
     * @param value the offending text, or {@code null} when there is none
     * @param reason what is wrong and what is allowed
     */
    public record Problem(String file, int line, @Nullable String column, @Nullable String value, String reason) {

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(this.file);
            if (this.line > 0) {
                text.append(':').append(this.line);
            }
            if (this.column != null) {
                text.append(", column ").append(this.column);
            }
            if (this.value != null) {
                text.append(", value '").append(this.value).append('\'');
            }
            return text.append(": ").append(this.reason).toString();
        }
    }
}

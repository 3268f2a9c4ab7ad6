package kr.c4i.gateway.kmtf.catalogue;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Everything about one catalogue attribute in one place: its column name, what it means, how its text is read and
 * which values are allowed. Loader, {@link MessageType} and documentation all read the attribute through this.
 *
 * @param name the column name in the header row
 * @param description one sentence for operators who edit the file
 * @param conversion turns the cell text into a value; throws IllegalArgumentException with the reason
 * @param rule returns why a converted value is not allowed, or {@code null} when it is
 */
record CatalogueColumn<T>(String name, String description, Function<String, T> conversion,
        Function<T, @Nullable String> rule) {

    /** Reads a cell; the exception's message is the reason alone, since the caller reports the column. */
    T parse(String text) {
        T value = this.conversion.apply(text);
        String problem = this.rule.apply(value);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return value;
    }

    void check(T value) {
        if (value == null) {
            throw new IllegalArgumentException(this.name + " is required");
        }
        String problem = this.rule.apply(value);
        if (problem != null) {
            throw new IllegalArgumentException(this.name + ": " + problem);
        }
    }

    /** For columns whose conversion already allows only valid values, such as enums. */
    static @Nullable String noRule(Object value) {
        return null;
    }
}

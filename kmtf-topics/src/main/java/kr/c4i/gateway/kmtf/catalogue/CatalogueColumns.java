package kr.c4i.gateway.kmtf.catalogue;

import java.util.List;
import java.util.regex.Pattern;

/** The columns of the catalogue file, each defined once. The header row must name every one of them. */
final class CatalogueColumns {

    static final int MIN_HISTORY = 1;
    static final int MAX_HISTORY = 1000;
    static final int MIN_MAX_SIZE = 256;
    static final int MAX_MAX_SIZE = 1024 * 1024;
    static final int MAX_TITLE_LENGTH = 120;
    static final int MAX_TOPIC_LENGTH = 256;

    private static final Pattern ID_PATTERN = Pattern.compile("[A-Z0-9]{1,20}");
    private static final Pattern TOPIC_PATTERN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z0-9_]+)*");

    static final CatalogueColumn<String> ID = new CatalogueColumn<>("id",
            "Message text format identifier as written in the first field of MSGID: 1 to 20 of A-Z and 0-9.",
            String::strip, (id) -> ID_PATTERN.matcher(id).matches() ? null
                    : "'" + id + "' must be 1 to 20 upper-case letters or digits");

    static final CatalogueColumn<String> TITLE = new CatalogueColumn<>("title",
            "Human-readable title for dashboards and logs, at most " + MAX_TITLE_LENGTH + " characters.",
            String::strip, CatalogueColumns::titleProblem);

    static final CatalogueColumn<Category> CATEGORY = new CatalogueColumn<>("category",
            "Functional area: one of " + EnumLabels.allowed(Category.class) + ".", Category::parse,
            CatalogueColumn::noRule);

    static final CatalogueColumn<String> TOPIC = new CatalogueColumn<>("topic",
            "DDS topic name, unique in the catalogue: letters, digits, '_' and '/' separators, such as kmtf/fires/CALLFIRE.",
            String::strip, CatalogueColumns::topicProblem);

    static final CatalogueColumn<Reliability> RELIABILITY = new CatalogueColumn<>("reliability",
            "Whether lost messages are repaired: " + EnumLabels.allowed(Reliability.class) + ".", Reliability::parse,
            CatalogueColumn::noRule);

    static final CatalogueColumn<Integer> HISTORY = new CatalogueColumn<>("history",
            "Messages a writer keeps for repair and late joiners, " + MIN_HISTORY + ".." + MAX_HISTORY + ".",
            CatalogueColumns::integer, (depth) -> range(depth, MIN_HISTORY, MAX_HISTORY));

    static final CatalogueColumn<Durability> DURABILITY = new CatalogueColumn<>("durability",
            "Whether late joiners receive history: " + EnumLabels.allowed(Durability.class) + ".", Durability::parse,
            CatalogueColumn::noRule);

    static final CatalogueColumn<Precedence> PRECEDENCE = new CatalogueColumn<>("precedence",
            "Default precedence: " + EnumLabels.allowed(Precedence.class) + " (or z, o, p, r).", Precedence::parse,
            CatalogueColumn::noRule);

    static final CatalogueColumn<Integer> MAX_SIZE = new CatalogueColumn<>("max_size",
            "Largest accepted message text in bytes of UTF-8, " + MIN_MAX_SIZE + ".." + MAX_MAX_SIZE + ".",
            CatalogueColumns::integer, (size) -> range(size, MIN_MAX_SIZE, MAX_MAX_SIZE));

    /** In the order of the shipped file and of the {@link MessageType} components. */
    static final List<CatalogueColumn<?>> ALL = List.of(ID, TITLE, CATEGORY, TOPIC, RELIABILITY, HISTORY, DURABILITY,
            PRECEDENCE, MAX_SIZE);

    private CatalogueColumns() {
    }

    private static String titleProblem(String title) {
        if (title.isEmpty()) {
            return "must not be blank";
        }
        if (title.length() > MAX_TITLE_LENGTH) {
            return "is longer than " + MAX_TITLE_LENGTH + " characters";
        }
        return title.chars().anyMatch(Character::isISOControl) ? "must not contain control characters" : null;
    }

    private static String topicProblem(String topic) {
        if (topic.length() > MAX_TOPIC_LENGTH) {
            return "'" + topic + "' is longer than " + MAX_TOPIC_LENGTH + " characters";
        }
        return TOPIC_PATTERN.matcher(topic).matches() ? null : "'" + topic
                + "' is not a DDS topic name (letters, digits and '_', separated by single '/', starting with a letter or '_')";
    }

    private static Integer integer(String text) {
        try {
            return Integer.valueOf(text.strip());
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
    }

    private static String range(int value, int min, int max) {
        return (value < min || value > max) ? value + " is out of range " + min + ".." + max : null;
    }
}

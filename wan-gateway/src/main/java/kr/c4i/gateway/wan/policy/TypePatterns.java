package kr.c4i.gateway.wan.policy;

import java.util.List;
import java.util.regex.Pattern;

import kr.c4i.gateway.kmtf.catalogue.Category;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * The type patterns of the policy file, as the routing table reads them plus globs: {@code *} (every type),
 * {@code category:<name>}, a type id, or a glob over type ids with {@code *} and {@code ?} ({@code TRK*}).
 */
final class TypePatterns {

    static final String ALL = "*";
    static final String CATEGORY_PREFIX = "category:";

    private TypePatterns() {
    }

    /**
     * The catalogue types a pattern names, in catalogue order.
     *
     * @throws IllegalArgumentException saying why the pattern names no type
     */
    static List<MessageType> resolve(String pattern, KmtfCatalogue catalogue) {
        String text = pattern.strip();
        if (text.equals(ALL)) {
            return catalogue.types();
        }
        if (text.startsWith(CATEGORY_PREFIX)) {
            Category category = Category.parse(text.substring(CATEGORY_PREFIX.length()));
            return nonEmpty(pattern, catalogue.types().stream().filter((t) -> t.category() == category).toList());
        }
        if (text.indexOf('*') >= 0 || text.indexOf('?') >= 0) {
            Pattern glob = glob(text);
            return nonEmpty(pattern, catalogue.types().stream().filter((t) -> glob.matcher(t.id()).matches()).toList());
        }
        return List.of(catalogue.find(text).orElseThrow(() -> new IllegalArgumentException(
                "'" + pattern + "' is not a type of the catalogue (" + catalogue.size() + " types; ids are case-sensitive)")));
    }

    private static List<MessageType> nonEmpty(String pattern, List<MessageType> types) {
        if (types.isEmpty()) {
            throw new IllegalArgumentException("'" + pattern + "' matches no type of the catalogue");
        }
        return types;
    }

    private static Pattern glob(String text) {
        StringBuilder regex = new StringBuilder();
        for (String part : text.split("(?=[*?])|(?<=[*?])")) {
            switch (part) {
                case "*" -> regex.append(".*");
                case "?" -> regex.append('.');
                default -> regex.append(Pattern.quote(part));
            }
        }
        return Pattern.compile(regex.toString());
    }
}

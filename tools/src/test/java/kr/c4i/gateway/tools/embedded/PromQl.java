package kr.c4i.gateway.tools.embedded;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads. A small tokenizer, not a parser: label matchers, label lists
 * ({@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left/right}), ranges, strings and
 * Grafana variables are removed first; what is left is functions (an identifier before '('), keywords, numbers
 * and metric names.
 */
final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?\\w+}?");
    private static final Pattern TOKEN = Pattern.compile("[0-9][0-9.eE+a-z]*|[A-Za-z_:][A-Za-z0-9_:]*(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan", "Inf", "NaN");
    /** Grafana's label_values(metric, label): its first argument is the metric. */
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)");

    private PromQl() {
    }

    static Set<String> metricNames(String expression) {
        Set<String> names = new LinkedHashSet<>();
        Matcher labelValues = LABEL_VALUES.matcher(expression);
        if (labelValues.find()) {
            names.add(labelValues.group(1));
            return names;
        }
        String rest = STRING.matcher(expression).replaceAll(" ");
        rest = VARIABLE.matcher(rest).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGE.matcher(rest).replaceAll(" ");
        rest = LABEL_LIST.matcher(rest).replaceAll(" ");
        Matcher token = TOKEN.matcher(rest);
        while (token.find()) {
            String word = token.group();
            boolean function = token.group(1) != null;
            if (!function && !Character.isDigit(word.charAt(0)) && !KEYWORDS.contains(word)) {
                names.add(word);
            }
        }
        return names;
    }
}

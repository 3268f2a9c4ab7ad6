package kr.c4i.gateway.deploy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The few PromQL rewrites and checks DashboardQueries needs. A scanner, not a parser: it knows strings, comments,
 * brackets, the set operators and the comparison operators, which is all the rewrites touch.
 */
final class PromQl {

    private static final int TEXT = Integer.MIN_VALUE;

    private static final int UNCLOSED = Integer.MIN_VALUE + 1;

    private static final Set<String> SET_OPERATORS = Set.of("and", "or", "unless");

    private static final Set<String> MATCHING = Set.of("on", "ignoring", "group_left", "group_right");

    /** Grafana's variable syntaxes: $name, ${name}, ${name:format}, [[name]], [[name:format]]. */
    static final Pattern GRAFANA_VARIABLE = Pattern.compile(
            "\\$(\\w+)|\\$\\{(\\w+)(?::([^}]+))?}|\\[\\[(\\w+)(?::([^]]+))?]]");

    private PromQl() {
    }

    /**
     * The expressions that must return series for a rule's expression to be able to fire. Its top-level comparisons
     * become {@code bool} (quiet is 0, not nothing); operands joined by {@code and} stay joined (no series: a metric is
     * missing or the two sides never match), {@code or} and {@code unless} operands are each checked alone (the right
     * side of {@code unless} is empty when healthy, and either side of {@code or} may be).
     */
    static List<String> seriesChecks(String expression) {
        String e = unwrap(expression.strip());
        List<SetOperator> operators = setOperators(e);
        List<String> checks = new ArrayList<>();
        if (operators.isEmpty()) {
            checks.add(boolComparisons(e));
            return checks;
        }
        List<List<String>> operands = new ArrayList<>();
        int start = 0;
        for (SetOperator op : operators) {
            operands.add(seriesChecks(e.substring(start, op.start())));
            start = op.end();
        }
        operands.add(seriesChecks(e.substring(start)));
        if (operators.stream().anyMatch(op -> !op.name().equals("and"))
                || operands.stream().anyMatch(operand -> operand.size() != 1)) {
            operands.forEach(checks::addAll);
            return checks;
        }
        StringBuilder joined = new StringBuilder("(" + operands.getFirst().getFirst() + ")");
        for (int i = 0; i < operators.size(); i++) {
            SetOperator op = operators.get(i);
            joined.append(' ').append(e.substring(op.start(), op.end()).strip()).append(" (")
                    .append(operands.get(i + 1).getFirst()).append(')');
        }
        checks.add(joined.toString());
        return checks;
    }

    /** The selector with one more label matcher: {@code x{a="b"}} and {@code l!=""} give {@code x{a="b", l!=""}}. */
    static String withMatcher(String selector, String matcher) {
        String s = selector.strip();
        int open = s.indexOf('{');
        if (open < 0) {
            return s + "{" + matcher + "}";
        }
        String inner = s.substring(open + 1, s.lastIndexOf('}')).strip();
        return s.substring(0, open + 1) + (inner.isEmpty() ? "" : inner + ", ") + matcher + "}";
    }

    /** What makes the expression unparsable as far as a scanner sees, or null. */
    static @Nullable String problem(String expression) {
        if (expression.isBlank()) {
            return "empty";
        }
        var variable = GRAFANA_VARIABLE.matcher(expression);
        if (variable.find()) {
            return "Grafana variable " + variable.group() + " left in";
        }
        Deque<Character> open = new ArrayDeque<>();
        int[] depth = depths(expression);
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (depth[i] == UNCLOSED) {
                return "the string at " + i + " never closed";
            }
            if (depth[i] == TEXT) {
                continue;
            }
            if ("([{".indexOf(c) >= 0) {
                open.push(c);
            }
            else if (")]}".indexOf(c) >= 0) {
                if (open.isEmpty() || "([{".indexOf(open.peek()) != ")]}".indexOf(c)) {
                    return "'" + c + "' at " + i + " closes nothing open";
                }
                open.pop();
            }
        }
        return open.isEmpty() ? null : "'" + open.peek() + "' never closed";
    }

    /**
     * Per character: the bracket depth it is at (a bracket counts at the depth outside it), TEXT inside a string or
     * comment, UNCLOSED in a string never closed.
     */
    private static int[] depths(String e) {
        int[] depths = new int[e.length()];
        int depth = 0;
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                int end = i + 1;
                while (end < e.length() && e.charAt(end) != c) {
                    end += c != '`' && e.charAt(end) == '\\' ? 2 : 1;
                }
                int mark = end < e.length() ? TEXT : UNCLOSED;
                for (int j = i; j <= Math.min(end, e.length() - 1); j++) {
                    depths[j] = mark;
                }
                i = end;
            }
            else if (c == '#') {
                while (i < e.length() && e.charAt(i) != '\n') {
                    depths[i++] = TEXT;
                }
                i--;
            }
            else if ("([{".indexOf(c) >= 0) {
                depths[i] = depth++;
            }
            else if (")]}".indexOf(c) >= 0) {
                depths[i] = --depth;
            }
            else {
                depths[i] = depth;
            }
        }
        return depths;
    }

    /** The expression without parentheses around all of it. */
    private static String unwrap(String e) {
        while (e.startsWith("(") && e.endsWith(")")) {
            int[] depth = depths(e);
            for (int i = 1; i < e.length() - 1; i++) {
                if (depth[i] == 0) {
                    return e;
                }
            }
            e = e.substring(1, e.length() - 1).strip();
        }
        return e;
    }

    /** A top-level and/or/unless, from its start to the end of its matching clause (on(...), ignoring(...)). */
    private record SetOperator(String name, int start, int end) {
    }

    private static List<SetOperator> setOperators(String e) {
        int[] depth = depths(e);
        List<SetOperator> operators = new ArrayList<>();
        for (int i = 0; i < e.length(); i++) {
            if (depth[i] != 0 || !isWordStart(e, i)) {
                continue;
            }
            int end = wordEnd(e, i);
            String word = e.substring(i, end).toLowerCase(Locale.ROOT);
            if (SET_OPERATORS.contains(word)) {
                operators.add(new SetOperator(word, i, matchingEnd(e, depth, end)));
            }
            i = end - 1;
        }
        return operators;
    }

    /** Past the on/ignoring/group_left/group_right clauses that follow a binary operator. */
    private static int matchingEnd(String e, int[] depth, int from) {
        int at = from;
        while (true) {
            int word = skipSpace(e, at);
            if (word >= e.length() || !isWordStart(e, word)
                    || !MATCHING.contains(e.substring(word, wordEnd(e, word)).toLowerCase(Locale.ROOT))) {
                return at;
            }
            at = wordEnd(e, word);
            int paren = skipSpace(e, at);
            if (paren < e.length() && e.charAt(paren) == '(') {
                at = paren + 1;
                while (at < e.length() && !(e.charAt(at) == ')' && depth[at] == depth[paren])) {
                    at++;
                }
                at++;
            }
        }
    }

    /** Each top-level comparison as a {@code bool} one: {@code x > 100} gives {@code x > bool 100}. */
    private static String boolComparisons(String e) {
        int[] depth = depths(e);
        StringBuilder out = new StringBuilder(e);
        for (int i = e.length() - 1; i >= 0; i--) {
            if (depth[i] != 0) {
                continue;
            }
            char c = e.charAt(i);
            char before = i > 0 ? e.charAt(i - 1) : ' ';
            boolean comparison = switch (c) {
                case '=' -> before == '=' || before == '!' || before == '<' || before == '>';
                case '>', '<' -> i + 1 >= e.length() || e.charAt(i + 1) != '=';
                default -> false;
            };
            if (!comparison) {
                continue;
            }
            int next = skipSpace(e, i + 1);
            if (!(isWordStart(e, next) && e.substring(next, wordEnd(e, next)).equalsIgnoreCase("bool"))) {
                out.insert(i + 1, " bool");
            }
            if (c == '=') {
                i--;
            }
        }
        return out.toString();
    }

    private static boolean isWordStart(String e, int i) {
        return i < e.length() && (Character.isLetter(e.charAt(i)) || e.charAt(i) == '_')
                && (i == 0 || !isWordPart(e.charAt(i - 1)));
    }

    private static int wordEnd(String e, int i) {
        int end = i;
        while (end < e.length() && isWordPart(e.charAt(end))) {
            end++;
        }
        return end;
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':';
    }

    private static int skipSpace(String e, int i) {
        int at = i;
        while (at < e.length() && Character.isWhitespace(e.charAt(at))) {
            at++;
        }
        return at;
    }
}

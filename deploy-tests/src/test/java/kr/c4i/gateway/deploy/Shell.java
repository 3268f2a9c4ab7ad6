package kr.c4i.gateway.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Just enough of bash to read the repository's scripts (bin/images, deploy/compose/pki.sh, an image's entrypoint)
 * without running them: every simple command a script runs, in order, with its variables expanded as far as the
 * script itself sets them (assignments, loops, function arguments, {@code [[ a == b ]]} conditions).
 */
final class Shell {

    /** A simple command: its words, and the here-document it reads (null: none). */
    record Command(List<String> words, @Nullable String input) {

        /** The file its output goes to ({@code > file}), or null. */
        @Nullable String output() {
            int redirect = words.indexOf(">");
            return redirect >= 0 && redirect + 1 < words.size() ? words.get(redirect + 1) : null;
        }

        /** Its words before any redirection. */
        List<String> arguments() {
            int end = 0;
            while (end < words.size() && !words.get(end).startsWith(">") && !words.get(end).matches("[0-9]>.*")) {
                end++;
            }
            return words.subList(0, end);
        }
    }

    private static final Pattern VARIABLE = Pattern.compile(
            "\\$\\{([A-Za-z_][A-Za-z0-9_]*|[0-9])(?::-([^}]*))?}|\\$([A-Za-z_][A-Za-z0-9_]*|[0-9])");

    private static final Pattern FUNCTION = Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)\\(\\)\\s*\\{");

    private static final Pattern HERE_DOCUMENT = Pattern.compile("<<-?'?([A-Za-z_]+)'?");

    private static final Pattern IF_EQUALS = Pattern.compile("if \\[\\[ (\\S+) == (\\S+) ]]; then");

    private static final Pattern AND_IF_EQUALS = Pattern.compile("\\[\\[ (\\S+) == (\\S+) ]] && ");

    private final List<String> lines;

    private final Map<String, List<String>> functions = new HashMap<>();

    private final Consumer<Command> run;

    /** The variables given, which the script's own assignments do not change (root, where it finds itself). */
    private final Set<String> given;

    private Shell(List<String> lines, Consumer<Command> run, Set<String> given) {
        this.lines = lines;
        this.run = run;
        this.given = given;
    }

    /** Gives {@code run} every simple command of {@code script} as it would run with {@code variables} set. */
    static void walk(String script, Map<String, String> variables, Consumer<Command> run) {
        List<String> lines = logicalLines(script);
        new Shell(lines, run, Set.copyOf(variables.keySet())).walk(0, lines.size(), new HashMap<>(variables), 0);
    }

    private void walk(int from, int to, Map<String, String> variables, int depth) {
        for (int i = from; i < to; i++) {
            String line = lines.get(i).strip();
            Matcher function = FUNCTION.matcher(line);
            if (function.matches()) {
                int end = i + 1;
                while (end < to && !lines.get(end).strip().equals("}")) {
                    end++;
                }
                functions.put(function.group(1), lines.subList(i + 1, end));
                i = end;
                continue;
            }
            Matcher loop = FOR.matcher(line);
            if (loop.lookingAt() && line.endsWith("; do")) {
                int end = end(i, to, "; do", "done");
                for (String value : words(loop.group(2), variables)) {
                    variables.put(loop.group(1), value);
                    walk(i + 1, end, variables, depth);
                }
                i = end;
                continue;
            }
            if (loop.lookingAt() && line.endsWith("; done")) {
                String body = line.substring(loop.end(), line.length() - "; done".length());
                for (String value : words(loop.group(2), variables)) {
                    variables.put(loop.group(1), value);
                    statements(body, null, variables, depth);
                }
                continue;
            }
            Matcher condition = IF_EQUALS.matcher(line);
            if (condition.matches()) {
                int end = end(i, to, "; then", "fi");
                int otherwise = i + 1;
                int nested = 0;
                while (otherwise < end && !(nested == 0 && lines.get(otherwise).strip().matches("else|elif .*"))) {
                    String inner = lines.get(otherwise).strip();
                    nested += inner.endsWith("; then") ? 1 : inner.startsWith("fi") ? -1 : 0;
                    otherwise++;
                }
                if (otherwise == end || lines.get(otherwise).strip().equals("else")) {
                    boolean holds = equal(condition.group(1), condition.group(2), variables);
                    walk(holds ? i + 1 : otherwise + 1, holds ? otherwise : end, variables, depth);
                    i = end;
                    continue;
                }
            }
            String input = null;
            Matcher hereDocument = HERE_DOCUMENT.matcher(line);
            if (hereDocument.find()) {
                int end = i + 1;
                while (end < to && !lines.get(end).strip().equals(hereDocument.group(1))) {
                    end++;
                }
                input = expand(String.join("\n", lines.subList(i + 1, end)) + "\n", variables);
                line = line.substring(0, hereDocument.start()) + line.substring(hereDocument.end());
                i = end;
            }
            statements(line, input, variables, depth);
        }
    }

    private void statements(String line, @Nullable String input, Map<String, String> variables, int depth) {
        Matcher condition = AND_IF_EQUALS.matcher(line);
        StringBuilder decided = new StringBuilder();
        while (condition.find()) {
            // [[ a == b ]] && command: the command only where the condition holds.
            condition.appendReplacement(decided, equal(condition.group(1), condition.group(2), variables) ? "" : "false ");
        }
        for (String statement : statements(condition.appendTail(decided).toString())) {
            if (statement.startsWith("false ")) {
                continue;
            }
            List<String> words = words(statement, variables);
            boolean local = words.getFirst().equals("local");
            List<String> assigned = local ? words.subList(1, words.size()) : words;
            if (local || assigned.stream().allMatch(word -> word.matches("[A-Za-z_][A-Za-z0-9_]*=.*"))) {
                assigned.stream().filter(word -> word.matches("[A-Za-z_][A-Za-z0-9_]*=.*"))
                        .filter(word -> !given.contains(word.substring(0, word.indexOf('='))))
                        .forEach(word -> variables.put(word.substring(0, word.indexOf('=')), word.substring(word.indexOf('=') + 1)));
                continue;
            }
            run.accept(new Command(words, input));
            List<String> body = functions.get(words.getFirst());
            if (body != null && depth < 8) {
                Map<String, String> arguments = new HashMap<>(variables);
                for (int n = 1; n < words.size() && n < 10; n++) {
                    arguments.put(String.valueOf(n), words.get(n));
                }
                new Shell(body, run, given).withFunctions(functions).walk(0, body.size(), arguments, depth + 1);
            }
        }
    }

    private Shell withFunctions(Map<String, List<String>> known) {
        functions.putAll(known);
        return this;
    }

    private static boolean equal(String left, String right, Map<String, String> variables) {
        return words(left, variables).equals(words(right, variables));
    }

    /** The line closing the block line {@code start} opens (opened by lines ending in {@code opens}). */
    private int end(int start, int to, String opens, String closes) {
        int depth = 0;
        for (int i = start + 1; i < to; i++) {
            String line = lines.get(i).strip();
            if (line.endsWith(opens)) {
                depth++;
            }
            else if (line.equals(closes) || line.startsWith(closes + " ") || line.startsWith(closes + ";")) {
                if (depth-- == 0) {
                    return i;
                }
            }
        }
        throw new IllegalArgumentException("no " + closes + " closes: " + lines.get(start));
    }

    private static final Pattern READ = Pattern.compile("\\$\\{!?([A-Za-z_][A-Za-z0-9_]*)|\\$([A-Za-z_][A-Za-z0-9_]*)");

    static final Pattern FOR = Pattern.compile("for ([A-Za-z_][A-Za-z0-9_]*) in ([^;]+); do");

    /** The script's lines with continuations joined and whole-line comments dropped (here-documents kept). */
    static List<String> logicalLines(String script) {
        List<String> lines = new ArrayList<>();
        StringBuilder logical = new StringBuilder();
        for (String line : script.split("\n", -1)) {
            if (logical.isEmpty() && line.strip().startsWith("#")) {
                continue;
            }
            if (line.endsWith("\\")) {
                logical.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            lines.add(logical.append(line).toString());
            logical.setLength(0);
        }
        return lines;
    }

    /** A line's statements: split at {@code ;}, {@code &&} and {@code ||} outside quotes, keywords dropped. */
    static List<String> statements(String line) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '$' && quote != '\'' && i + 1 < line.length() && line.charAt(i + 1) == '(') {
                int end = substitutionEnd(line, i + 1);
                current.append(line, i, end + 1);
                i = end;
                continue;
            }
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            }
            else if (c == '\'' || c == '"') {
                quote = c;
            }
            else if (c == ';' || (c == '&' || c == '|') && i + 1 < line.length() && line.charAt(i + 1) == c) {
                statements.add(current.toString());
                current.setLength(0);
                i += c == ';' ? 0 : 1;
                continue;
            }
            current.append(c);
        }
        statements.add(current.toString());
        return statements.stream().map(s -> s.strip().replaceFirst("^(?:(?:then|do|else|elif|if|while|!)\\s+|[^\\s()'\"$]+\\)\\s*)+", ""))
                .filter(s -> !s.isEmpty()).toList();
    }

    /** A statement's words, quotes removed and variables of {@code variables} expanded (others kept as written). */
    static List<String> words(String statement, Map<String, String> variables) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < statement.length(); i++) {
            char c = statement.charAt(i);
            if (c == '\'') {
                int end = statement.indexOf('\'', i + 1);
                word.append(statement, i + 1, end < 0 ? statement.length() : end);
                i = end < 0 ? statement.length() : end;
                inWord = true;
            }
            else if (c == '"') {
                int end = i + 1;
                while (end < statement.length() && statement.charAt(end) != '"') {
                    end = statement.startsWith("$(", end) ? substitutionEnd(statement, end + 1) + 1 : end + 1;
                }
                word.append(expand(statement.substring(i + 1, Math.min(end, statement.length())), variables));
                i = end;
                inWord = true;
            }
            else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            }
            else {
                int end = i;
                while (end < statement.length() && !Character.isWhitespace(statement.charAt(end))
                        && statement.charAt(end) != '\'' && statement.charAt(end) != '"') {
                    end = statement.startsWith("$(", end) ? substitutionEnd(statement, end + 1) + 1 : end + 1;
                }
                word.append(expand(statement.substring(i, end), variables));
                i = end - 1;
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** The index of the parenthesis closing the one at {@code open} ({@code $(...)}), quotes inside skipped. */
    private static int substitutionEnd(String text, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            }
            else if (c == '\'' || c == '"') {
                quote = c;
            }
            else if (c == '(') {
                depth++;
            }
            else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return text.length() - 1;
    }

    static String expand(String text, Map<String, String> variables) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1) != null ? matcher.group(1) : matcher.group(3);
            String value = variables.get(name);
            if (value == null || value.isEmpty() && matcher.group(2) != null) {
                value = matcher.group(2) != null ? matcher.group(2) : matcher.group();
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        return matcher.appendTail(result).toString();
    }

    /**
     * The variables a script reads: {@code $NAME}, {@code ${NAME...}}, and the names a loop gives to an indirect
     * {@code ${!name}} ({@code for name in A B; do ... "${!name}"}).
     */
    static Set<String> variablesRead(String script) {
        Set<String> read = new LinkedHashSet<>();
        Matcher matcher = READ.matcher(script);
        while (matcher.find()) {
            read.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
        }
        Matcher loop = FOR.matcher(script);
        while (loop.find()) {
            if (script.contains("${!" + loop.group(1))) {
                read.addAll(List.of(loop.group(2).strip().split("\\s+")));
            }
        }
        return read;
    }
}

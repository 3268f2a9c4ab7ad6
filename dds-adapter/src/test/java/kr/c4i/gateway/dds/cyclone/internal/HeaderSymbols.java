package kr.c4i.gateway.dds.cyclone.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the integer constants of a C header (object-like {@code #define}s and enumerators written as
 * {@code NAME = expr,}) and evaluates idlc's op expressions with them: identifiers, integer literals with optional
 * {@code u} suffix, parentheses, {@code <<} and {@code |}. Enough for {@code dds_opcodes.h}, nothing more.
 */
final class HeaderSymbols {

    private static final Pattern DEFINE = Pattern.compile("^\\s*#define\\s+(\\w+)\\s+(.+?)\\s*$", Pattern.MULTILINE);
    private static final Pattern ENUMERATOR = Pattern.compile("^\\s*(DDS_\\w+)\\s*=\\s*([^,/\\n]+?)\\s*,?\\s*(/\\*.*)?$",
            Pattern.MULTILINE);
    private static final Pattern TOKEN = Pattern.compile("\\s*(0[xX][0-9a-fA-F]+|\\d+|\\w+|<<|[|()])[uU]?");

    private HeaderSymbols() {
    }

    static Map<String, Long> parse(String header) {
        String text = header.replaceAll("(?s)/\\*.*?\\*/", " ");
        Map<String, String> raw = new HashMap<>();
        Matcher define = DEFINE.matcher(text);
        while (define.find()) {
            raw.put(define.group(1), define.group(2));
        }
        Matcher enumerator = ENUMERATOR.matcher(text);
        while (enumerator.find()) {
            raw.putIfAbsent(enumerator.group(1), enumerator.group(2));
        }
        Map<String, Long> values = new HashMap<>();
        raw.forEach((name, expr) -> {
            try {
                values.put(name, evaluate(expr, raw, values, 0));
            }
            catch (IllegalArgumentException ex) {
                // Function-like macros and casts are not constants this check needs.
            }
        });
        return values;
    }

    static long evaluate(String expression, Map<String, Long> symbols) {
        return evaluate(expression, Map.of(), new HashMap<>(symbols), 0);
    }

    private static long evaluate(String expression, Map<String, String> raw, Map<String, Long> known, int depth) {
        if (depth > 20) {
            throw new IllegalArgumentException("recursive definition");
        }
        List<String> tokens = new ArrayList<>();
        Matcher token = TOKEN.matcher(expression);
        int end = 0;
        while (token.lookingAt()) {
            tokens.add(token.group(1));
            end = token.end();
            token.region(end, expression.length());
        }
        if (!expression.substring(end).isBlank()) {
            throw new IllegalArgumentException("cannot evaluate '" + expression + "'");
        }
        Parser parser = new Parser(tokens, raw, known, depth);
        long value = parser.or();
        if (parser.position != tokens.size()) {
            throw new IllegalArgumentException("cannot evaluate '" + expression + "'");
        }
        return value;
    }

    private static final class Parser {

        private final List<String> tokens;
        private final Map<String, String> raw;
        private final Map<String, Long> known;
        private final int depth;
        private int position;

        Parser(List<String> tokens, Map<String, String> raw, Map<String, Long> known, int depth) {
            this.tokens = tokens;
            this.raw = raw;
            this.known = known;
            this.depth = depth;
        }

        long or() {
            long value = shift();
            while (peek("|")) {
                this.position++;
                value |= shift();
            }
            return value & 0xFFFF_FFFFL;
        }

        long shift() {
            long value = primary();
            while (peek("<<")) {
                this.position++;
                value <<= primary();
            }
            return value;
        }

        long primary() {
            if (this.position >= this.tokens.size()) {
                throw new IllegalArgumentException("unexpected end");
            }
            String token = this.tokens.get(this.position++);
            if (token.equals("(")) {
                long value = or();
                if (!peek(")")) {
                    throw new IllegalArgumentException("missing )");
                }
                this.position++;
                return value;
            }
            if (token.startsWith("0x") || token.startsWith("0X")) {
                return Long.parseLong(token.substring(2), 16);
            }
            if (Character.isDigit(token.charAt(0))) {
                return Long.parseLong(token);
            }
            Long value = this.known.get(token);
            if (value != null) {
                return value;
            }
            String definition = this.raw.get(token);
            if (definition == null) {
                throw new IllegalArgumentException("unknown symbol " + token);
            }
            long resolved = evaluate(definition, this.raw, this.known, this.depth + 1);
            this.known.put(token, resolved);
            return resolved;
        }

        private boolean peek(String token) {
            return this.position < this.tokens.size() && this.tokens.get(this.position).equals(token);
        }
    }
}

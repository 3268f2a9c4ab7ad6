package kr.c4i.gateway.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile read as its instructions: continuation lines joined, comments dropped, {@code ARG} defaults
 * substituted into what follows.
 *
 * @param file the Dockerfile
 * @param instructions keyword (upper case) and its arguments, in order
 */
record Dockerfile(Path file, List<Instruction> instructions) {

    record Instruction(String keyword, String arguments) {
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    static Dockerfile read(Path file) {
        List<Instruction> instructions = new ArrayList<>();
        Map<String, String> arguments = new LinkedHashMap<>();
        StringBuilder logical = new StringBuilder();
        for (String line : Repository.read(file).split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && logical.isEmpty())) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                logical.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            logical.append(trimmed);
            String[] parts = logical.toString().strip().split("\\s+", 2);
            logical.setLength(0);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            String rest = parts.length > 1 ? parts[1] : "";
            if (keyword.equals("ARG")) {
                String[] argument = rest.split("=", 2);
                if (argument.length == 2) {
                    arguments.put(argument[0], substitute(argument[1], arguments));
                }
            }
            // RUN, CMD, HEALTHCHECK and ENTRYPOINT are expanded by the shell at run time, not here.
            boolean buildTime = keyword.equals("FROM") || keyword.equals("COPY") || keyword.equals("ADD");
            instructions.add(new Instruction(keyword, buildTime ? substitute(rest, arguments) : rest));
        }
        return new Dockerfile(file, List.copyOf(instructions));
    }

    private static String substitute(String text, Map<String, String> arguments) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
            matcher.appendReplacement(result, Matcher.quoteReplacement(arguments.getOrDefault(name, matcher.group())));
        }
        return matcher.appendTail(result).toString();
    }

    List<Instruction> all(String keyword) {
        return instructions.stream().filter(instruction -> instruction.keyword().equals(keyword)).toList();
    }

    /** The instructions of the last stage (the image that ships). */
    List<Instruction> finalStage() {
        int from = 0;
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).keyword().equals("FROM")) {
                from = i;
            }
        }
        return instructions.subList(from, instructions.size());
    }

    /** Each {@code ENV} variable with its value ({@code ENV A=1 B=2} form). */
    Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        Pattern pair = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S*)");
        for (Instruction instruction : all("ENV")) {
            Matcher matcher = pair.matcher(instruction.arguments());
            while (matcher.find()) {
                environment.put(matcher.group(1), matcher.group(2));
            }
        }
        return environment;
    }
}

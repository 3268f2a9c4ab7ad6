package kr.c4i.gateway.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

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

    /**
     * The instructions of the image a build of stage {@code target} ships (the last stage where null): those of the
     * stages it is built {@code FROM}, then its own.
     *
     * @throws IllegalArgumentException if no stage has that name
     */
    List<Instruction> image(@Nullable String target) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).keyword().equals("FROM")) {
                starts.add(i);
            }
        }
        int stage = target == null ? starts.size() - 1 : stage(starts, target);
        if (stage < 0) {
            throw new IllegalArgumentException(file + " has no stage " + target);
        }
        List<Instruction> own = instructions.subList(starts.get(stage),
                stage + 1 < starts.size() ? starts.get(stage + 1) : instructions.size());
        String base = own.getFirst().arguments().split("\\s+")[0];
        if (stage(starts.subList(0, stage), base) < 0) {
            return own;
        }
        List<Instruction> image = new ArrayList<>(image(base));
        image.addAll(own);
        return image;
    }

    /** The index of the stage named {@code name} (as Docker, ignoring case) among those starting there, or -1. */
    private int stage(List<Integer> starts, String name) {
        for (int s = 0; s < starts.size(); s++) {
            String[] words = instructions.get(starts.get(s)).arguments().split("\\s+");
            if (words.length == 3 && words[1].equalsIgnoreCase("AS") && words[2].equalsIgnoreCase(name)) {
                return s;
            }
        }
        return -1;
    }

    /** Each {@code ENV} variable with its value ({@code ENV A=1 B=2} form) in the image of stage {@code target}. */
    Map<String, String> environment(@Nullable String target) {
        Map<String, String> environment = new LinkedHashMap<>();
        Pattern pair = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|\\S*)");
        for (Instruction instruction : image(target).stream().filter(i -> i.keyword().equals("ENV")).toList()) {
            Matcher matcher = pair.matcher(instruction.arguments());
            while (matcher.find()) {
                environment.put(matcher.group(1), matcher.group(2));
            }
        }
        return environment;
    }
}

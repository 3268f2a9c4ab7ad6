package kr.c4i.gateway.deploy;

import static kr.c4i.gateway.deploy.Repository.list;
import static kr.c4i.gateway.deploy.Repository.map;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every PromQL expression of the monitoring files, as Prometheus gets asked it: each Grafana dashboard's panel
 * targets (also in rows and collapsed rows) and query variables, and each rule of the rule files prometheus.yml
 * loads. Grafana's variables are replaced by what Grafana sends for the dashboard's defaults.
 */
public final class DashboardQueries {

    static final String DASHBOARDS = "deploy/grafana/dashboards";

    static final String PROMETHEUS = "deploy/prometheus";

    /**
     * One expression, named by where it comes from (e.g. {@code bridge.json: panel 'Outbox backlog' B}). Without
     * {@code needsSeries} it is only to be valid: a rule as written, quiet while all is well.
     */
    public record Query(String file, String where, String expr, boolean needsSeries) {
    }

    /**
     * Grafana's own variables. The provisioned datasource sets no scrape interval, so Grafana assumes 15s:
     * $__interval is at least that and $__rate_interval is max(4 × 15s, $__interval + 15s).
     */
    private static final Map<String, String> BUILT_IN = Map.of("__interval", "15s", "__interval_ms", "15000",
            "__rate_interval", "1m", "__rate_interval_ms", "60000");

    private static final Pattern LABEL_VALUES = Pattern.compile(
            "label_values\\(\\s*(?:(.+?)\\s*,\\s*)?([A-Za-z_][A-Za-z0-9_]*)\\s*\\)", Pattern.DOTALL);

    private static final Pattern QUERY_RESULT = Pattern.compile("query_result\\((.+)\\)", Pattern.DOTALL);

    private static final Pattern METRICS = Pattern.compile("metrics\\((.+)\\)", Pattern.DOTALL);

    /** The text before a reference that puts it in a regex matcher's string: {@code node=~"}. */
    private static final Pattern IN_REGEX_MATCHER = Pattern.compile("[=!]~\\s*\"[^\"]*$");

    private static final Pattern RELATIVE_TIME = Pattern.compile("now-(\\d+[smhdwy])");

    private DashboardQueries() {
    }

    /** The repository's: every dashboard, then every rule file prometheus.yml names. */
    public static List<Query> all() {
        List<Query> queries = new ArrayList<>();
        dashboards().forEach(file -> queries.addAll(dashboard(file)));
        ruleFiles().forEach(file -> queries.addAll(rules(file)));
        return queries;
    }

    static List<Path> dashboards() {
        try (Stream<Path> files = Files.list(Repository.file(DASHBOARDS))) {
            return files.filter(file -> file.toString().endsWith(".json")).sorted().toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** prometheus.yml's rule_files, as mounted from deploy/prometheus (MonitoringFilesTest checks the mounts). */
    static List<Path> ruleFiles() {
        return list(Repository.yaml(PROMETHEUS + "/prometheus.yml").get("rule_files")).stream()
                .map(name -> Repository.file(PROMETHEUS).resolve(Path.of(name.toString()).getFileName())).toList();
    }

    /** Every panel: those of rows too, and those a collapsed row keeps inside it. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    static List<Query> dashboard(Path file) {
        String name = file.getFileName().toString();
        JsonNode dashboard = JsonMapper.builder().build().readTree(file.toFile());
        Map<String, JsonNode> variables = new HashMap<>();
        dashboard.path("templating").path("list").forEach(v -> variables.put(v.path("name").asString(""), v));
        Matcher range = RELATIVE_TIME.matcher(dashboard.path("time").path("from").asString(""));
        String window = range.matches() ? range.group(1) : "1h";

        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asString("");
                if (!expr.isBlank()) {
                    String where = name + ": panel '" + panel.path("title").asString("") + "' "
                            + target.path("refId").asString("");
                    queries.add(new Query(name, where, substitute(expr, variables, window, where), true));
                }
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asString("").equals("query")) {
                String where = name + ": variable " + variable.path("name").asString("");
                JsonNode query = variable.path("query");
                String text = query.isObject() ? query.path("query").asString("") : query.asString("");
                queries.add(new Query(name, where,
                        substitute(seriesQuery(text.isBlank() ? variable.path("definition").asString("") : text,
                                where), variables, window, where), true));
            }
        }
        return queries;
    }

    /** Each rule as written (to be valid), then what must return series for it to be able to fire. */
    static List<Query> rules(Path file) {
        String name = file.getFileName().toString();
        List<Query> queries = new ArrayList<>();
        for (Object group : list(Repository.yaml(Repository.ROOT.relativize(file).toString()).get("groups"))) {
            for (Object definition : list(map(group).get("rules"))) {
                Map<String, Object> rule = map(definition);
                String where = name + ": " + (rule.containsKey("alert") ? "alert " + rule.get("alert")
                        : "record " + rule.get("record"));
                String expr = String.valueOf(rule.get("expr")).strip();
                queries.add(new Query(name, where, expr, false));
                List<String> checks = PromQl.seriesChecks(expr);
                for (int i = 0; i < checks.size(); i++) {
                    String part = checks.size() == 1 ? "" : " operand " + (i + 1) + " of " + checks.size() + ",";
                    queries.add(new Query(name, where + part + " comparisons as bool", checks.get(i), true));
                }
            }
        }
        return queries;
    }

    /**
     * A query variable's query as the series query that has its values: Grafana's label_values(metric, label) asks
     * Prometheus for the series that have the label, and so does this.
     */
    static String seriesQuery(String query, String where) {
        String q = query.strip();
        Matcher labelValues = LABEL_VALUES.matcher(q);
        if (labelValues.matches()) {
            String label = labelValues.group(2);
            String selector = labelValues.group(1) == null ? "" : labelValues.group(1);
            return "count by (" + label + ") (" + PromQl.withMatcher(selector, label + "!=\"\"") + ")";
        }
        Matcher queryResult = QUERY_RESULT.matcher(q);
        if (queryResult.matches()) {
            return queryResult.group(1).strip();
        }
        Matcher metrics = METRICS.matcher(q);
        if (metrics.matches()) {
            return "count by (__name__) ({__name__=~\"" + metrics.group(1).strip() + "\"})";
        }
        throw new IllegalStateException(where + ": no series query for Grafana's " + q);
    }

    /**
     * Grafana's variables replaced. A query variable has Grafana's values only once Prometheus answers; in a regex
     * matcher (the only place the dashboards use one) its "All" is what it matches, so {@code .+} (or its allValue).
     */
    static String substitute(String expr, Map<String, JsonNode> variables, String window, String where) {
        Matcher reference = PromQl.GRAFANA_VARIABLE.matcher(expr);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String name = Stream.of(reference.group(1), reference.group(2), reference.group(4))
                    .filter(group -> group != null).findFirst().orElseThrow();
            boolean inRegex = IN_REGEX_MATCHER.matcher(expr.substring(0, reference.start())).find();
            reference.appendReplacement(out, Matcher.quoteReplacement(value(name, variables, window, inRegex, where)));
        }
        reference.appendTail(out);
        return out.toString();
    }

    private static String value(String name, Map<String, JsonNode> variables, String window, boolean inRegex,
            String where) {
        String builtIn = switch (name) {
            case "__range" -> window;
            case "__range_s" -> String.valueOf(seconds(window));
            case "__range_ms" -> String.valueOf(seconds(window) * 1000);
            default -> BUILT_IN.get(name);
        };
        if (builtIn != null) {
            return builtIn;
        }
        JsonNode variable = variables.get(name);
        if (variable == null) {
            throw new IllegalStateException(where + ": $" + name + " is no variable of the dashboard");
        }
        String current = variable.path("current").path("value").asString("");
        return switch (variable.path("type").asString("")) {
            case "constant" -> variable.path("query").asString("");
            case "query", "custom" -> {
                if (inRegex) {
                    String all = variable.path("allValue").asString("");
                    yield all.isEmpty() ? ".+" : all;
                }
                if (variable.path("type").asString("").equals("custom") && !current.startsWith("$")) {
                    yield current;
                }
                throw new IllegalStateException(where + ": $" + name
                        + " outside a regex matcher; its value is known only to Grafana");
            }
            case "textbox" -> current.isEmpty() ? variable.path("query").asString("") : current;
            case "interval" -> current.isEmpty() || current.startsWith("$__auto") ? BUILT_IN.get("__interval") : current;
            default -> throw new IllegalStateException(where + ": $" + name + " is a "
                    + variable.path("type").asString("") + " variable, which has no value in PromQL");
        };
    }

    private static long seconds(String duration) {
        long amount = Long.parseLong(duration.substring(0, duration.length() - 1));
        return amount * switch (duration.charAt(duration.length() - 1)) {
            case 's' -> 1;
            case 'm' -> 60;
            case 'h' -> 3600;
            case 'd' -> 86_400;
            case 'w' -> 604_800;
            default -> 31_536_000;
        };
    }
}

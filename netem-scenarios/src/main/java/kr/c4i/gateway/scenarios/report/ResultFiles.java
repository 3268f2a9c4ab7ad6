package kr.c4i.gateway.scenarios.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;

/**
 * A run's folder: {@code results.json} (everything), {@code repetitions.csv} (a row per repetition),
 * {@code report.md} and the charts. The report and charts can be rendered again from the JSON alone.
 */
public final class ResultFiles {

    public static final String JSON = "results.json";
    public static final String CSV = "repetitions.csv";
    public static final String REPORT = "report.md";

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final List<String> FIXED = List.of("experiment", "transport", "cell", "repetition", "started_at",
            "expected", "delivered");

    private ResultFiles() {
    }

    /**
     * Writes JSON, CSV, charts and the report into the folder.
     *
     * @return the report's text
     */
    public static String writeAll(RunResult run, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(JSON), toJson(run), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(CSV), toCsv(run.repetitions()), StandardCharsets.UTF_8);
        Map<String, String> figures = Charts.write(run, dir);
        String report = MarkdownReport.render(run, figures);
        Files.writeString(dir.resolve(REPORT), report, StandardCharsets.UTF_8);
        return report;
    }

    public static String toJson(RunResult run) {
        return MAPPER.writeValueAsString(run);
    }

    public static RunResult fromJson(String json) {
        return MAPPER.readValue(json, RunResult.class);
    }

    public static RunResult read(Path dir) throws IOException {
        Path file = Files.isDirectory(dir) ? dir.resolve(JSON) : dir;
        return fromJson(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** One row per repetition; a column per metric any repetition has (empty where not measured). */
    public static String toCsv(List<RepetitionResult> repetitions) {
        Set<String> present = new LinkedHashSet<>();
        repetitions.forEach(r -> present.addAll(r.metrics().keySet()));
        Set<String> metrics = new LinkedHashSet<>();
        Metrics.ORDER.stream().filter(present::contains).forEach(metrics::add);
        metrics.addAll(present);
        List<String> header = new ArrayList<>(FIXED);
        header.addAll(metrics);
        header.add("note");
        StringBuilder csv = new StringBuilder(String.join(",", header)).append('\n');
        for (RepetitionResult r : repetitions) {
            List<String> row = new ArrayList<>(List.of(r.experiment(), r.transport(), quote(r.cell()),
                    Integer.toString(r.repetition()), r.startedAt().toString(), Long.toString(r.expected()),
                    Long.toString(r.delivered())));
            for (String m : metrics) {
                Double v = r.metrics().get(m);
                row.add(v == null || v.isNaN() ? "" : number(v));
            }
            row.add(quote(r.note()));
            csv.append(String.join(",", row)).append('\n');
        }
        return csv.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String quote(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains(":")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}

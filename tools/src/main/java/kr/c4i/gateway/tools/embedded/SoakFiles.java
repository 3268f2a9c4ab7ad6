package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * One transport's soak on disk: {@code <transport>.csv} gains a line per sample as it is taken; {@code .json} (the run,
 * every sample, and at the end the verdict and the delivery check) and {@code .svg} (the plot) are rewritten with each
 * sample, so a run stopped by Ctrl-C, or killed, leaves what it had measured.
 */
final class SoakFiles {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final Path csv;
    private final Path json;
    private final Path svg;
    private final String title;
    private final List<SoakMetric> metrics;
    private final Map<String, Object> run;
    private final Duration duration;
    private final List<SoakSample> samples = new ArrayList<>();

    /**
     * @param name the files' name, e.g. {@code jms}
     * @param title the plot's heading
     * @param run what the JSON says of the run: transport, options, machine
     * @param duration how long the run is meant to last, for the verdict so far
     */
    SoakFiles(Path dir, String name, String title, List<SoakMetric> metrics, Map<String, Object> run,
            Duration duration) throws IOException {
        this.csv = dir.resolve(name + ".csv");
        this.json = dir.resolve(name + ".json");
        this.svg = dir.resolve(name + ".svg");
        this.title = title;
        this.metrics = metrics;
        this.run = run;
        this.duration = duration;
        List<String> header = new ArrayList<>(List.of("elapsed_s", "time"));
        metrics.forEach(metric -> header.add(metric.column()));
        Files.writeString(csv, String.join(",", header) + "\n");
    }

    List<SoakSample> samples() {
        return List.copyOf(samples);
    }

    Path csv() {
        return csv;
    }

    Path json() {
        return json;
    }

    Path svg() {
        return svg;
    }

    /** Appends the sample to the CSV and rewrites the JSON and the plot with the verdict so far. */
    void add(SoakSample sample) throws IOException {
        samples.add(sample);
        List<String> cells = new ArrayList<>(List.of(number(sample.elapsed().toMillis() / 1000.0),
                sample.at().toString()));
        metrics.forEach(metric -> cells.add(number(sample.value(metric))));
        Files.writeString(csv, String.join(",", cells) + "\n", StandardOpenOption.APPEND);
        write(SoakVerdict.of(metrics, samples, duration), Optional.empty());
    }

    /** The JSON and the plot with the verdict and, after a drain, the delivery check. */
    void write(SoakVerdict verdict, Optional<SoakDelivery> delivery) throws IOException {
        Map<String, Object> document = new LinkedHashMap<>(run);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (SoakSample sample : samples) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("elapsed_s", sample.elapsed().toMillis() / 1000.0);
            row.put("time", sample.at().toString());
            metrics.forEach(metric -> row.put(metric.column(), finite(sample.value(metric))));
            rows.add(row);
        }
        document.put("samples", rows);
        document.put("verdict", verdict(verdict));
        delivery.ifPresent(d -> {
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("written", d.written());
            check.put("outbox_rows", d.outboxRows());
            check.put("unsent", d.unsent());
            check.put("inbox_rows", d.inboxRows());
            check.put("same_ids", d.sameSet());
            check.put("drain_s", d.drain().toMillis() / 1000.0);
            check.put("drained", d.drained());
            check.put("lossless", d.lossless());
            document.put("delivery", check);
        });
        JSON.writeValue(json.toFile(), document);
        Files.writeString(svg, SoakPlot.svg(title, metrics, samples, verdict.baselineAt()));
    }

    private static Map<String, Object> verdict(SoakVerdict verdict) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("baseline_due_s", verdict.baselineAt().toMillis() / 1000.0);
        out.put("baseline_s", verdict.baseline().map(s -> s.elapsed().toMillis() / 1000.0).orElse(null));
        out.put("last_s", verdict.last().map(s -> s.elapsed().toMillis() / 1000.0).orElse(null));
        out.put("flat_under_percent", SoakVerdict.FLAT_PERCENT);
        out.put("judged", verdict.judged());
        out.put("flat", verdict.flat());
        List<Map<String, Object>> growths = new ArrayList<>();
        for (SoakVerdict.Growth growth : verdict.growths()) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("metric", growth.metric().column());
            g.put("baseline", finite(growth.baseline()));
            g.put("last", finite(growth.last()));
            g.put("growth_percent", finite(100 * growth.growth()));
            g.put("flat", growth.flat());
            growths.add(g);
        }
        out.put("metrics", growths);
        return out;
    }

    /** JSON has no NaN or infinity: a figure not read, or growth from nothing, is null. */
    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static String number(double value) {
        if (!Double.isFinite(value)) {
            return "";
        }
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.2f", value);
    }
}

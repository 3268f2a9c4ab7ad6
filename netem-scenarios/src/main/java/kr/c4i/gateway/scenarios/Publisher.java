package kr.c4i.gateway.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.report.ResultFiles;

/** Puts a run's report where readers look for it (docs/results.md), with its charts beside it if asked. */
final class Publisher {

    private static final List<String> CHARTS = List.of("figure7-recovery", "figure8-bandwidth", "figure8b-wire-bytes",
            "figure9-loss");

    private Publisher() {
    }

    /**
     * @param report the report's text, whose chart links are bare file names
     * @param runDir the run's folder, where the charts are
     * @param file the Markdown file to write
     * @param figures where to copy the charts, or null to link them in the run's folder
     */
    static void publish(String report, Path runDir, Path file, @Nullable Path figures) throws IOException {
        Path base = file.toAbsolutePath().getParent();
        Files.createDirectories(base);
        Path chartDir = runDir.toAbsolutePath();
        if (figures != null) {
            chartDir = figures.toAbsolutePath();
            Files.createDirectories(chartDir);
            for (String chart : CHARTS) {
                for (String ext : List.of(".png", ".svg")) {
                    Path source = runDir.resolve(chart + ext);
                    if (Files.exists(source)) {
                        Files.copy(source, chartDir.resolve(chart + ext), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            // The data too, so the published report can be checked and rendered again ('scenarios report').
            for (String data : List.of(ResultFiles.JSON, ResultFiles.CSV)) {
                Files.copy(runDir.resolve(data), chartDir.resolve(data), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        String relative = base.relativize(chartDir).toString().replace('\\', '/');
        String text = report;
        for (String chart : CHARTS) {
            text = text.replace("](" + chart + ".png)", "](" + (relative.isEmpty() ? "" : relative + "/") + chart + ".png)");
        }
        String folder = base.relativize(runDir.toAbsolutePath()).toString().replace('\\', '/');
        String copies = figures == null ? "" : " `results.json` and `repetitions.csv` are also in `" + relative + "`.";
        text = text.replace("## Files\n\n", "## Files\n\nIn the run's results folder (`" + folder + "`): ");
        text = text.replace("(each node's console).\n", "(each node's console)." + copies + "\n");
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}

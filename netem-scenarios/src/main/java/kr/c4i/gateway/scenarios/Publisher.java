package kr.c4i.gateway.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.report.ResultFiles;

/**
 * Puts reports where readers look for them (docs/results.md), with their charts beside them if asked. Several runs
 * (say, the long loss experiment run apart from the others) go on one page, one section each.
 */
final class Publisher {

    private static final List<String> CHARTS = List.of("figure7-recovery", "figure8-bandwidth", "figure8b-wire-bytes",
            "figure9-loss");

    private static final Pattern HEADING = Pattern.compile("(?m)^#");

    /**
     * A run's report and folder.
     *
     * @param report the report's text, whose chart links are bare file names
     * @param runDir the run's folder, where the charts are
     */
    record Run(String report, Path runDir) {
    }

    private Publisher() {
    }

    /**
     * @param report the report's text, whose chart links are bare file names
     * @param runDir the run's folder, where the charts are
     * @param file the Markdown file to write
     * @param figures where to copy the charts, or null to link them in the run's folder
     */
    static void publish(String report, Path runDir, Path file, @Nullable Path figures) throws IOException {
        publish(List.of(new Run(report, runDir)), file, figures);
    }

    /**
     * @param runs the runs, in the order the page shows them
     * @param file the Markdown file to write
     * @param figures where to copy the charts (with several runs, into a folder per run), or null to link them in
     *        the runs' folders
     */
    static void publish(List<Run> runs, Path file, @Nullable Path figures) throws IOException {
        Path base = file.toAbsolutePath().getParent();
        Files.createDirectories(base);
        if (runs.size() == 1) {
            Files.writeString(file, section(runs.getFirst(), base, figures), StandardCharsets.UTF_8);
            return;
        }
        StringBuilder page = new StringBuilder("# The study's experiments on an emulated network: JMS and DDS\n\n")
                .append("The latest results come from ").append(runs.size())
                .append(" runs, one section each; every section names its command, repetitions and setup.\n\n");
        for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            Path name = run.runDir().toAbsolutePath().getFileName();
            Path runFigures = figures == null ? null : figures.resolve(name);
            String section = section(run, base, runFigures);
            // The report's own title is the page's; the section is named after its run instead.
            section = section.substring(section.indexOf('\n') + 1);
            page.append("## Run ").append(i + 1).append(" of ").append(runs.size()).append(": `").append(name)
                    .append("`\n").append(HEADING.matcher(section).replaceAll("##")).append('\n');
        }
        Files.writeString(file, page.toString(), StandardCharsets.UTF_8);
    }

    private static String section(Run run, Path base, @Nullable Path figures) throws IOException {
        Path runDir = run.runDir();
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
        String text = run.report();
        for (String chart : CHARTS) {
            text = text.replace("](" + chart + ".png)", "](" + (relative.isEmpty() ? "" : relative + "/") + chart + ".png)");
        }
        String folder = base.relativize(runDir.toAbsolutePath()).toString().replace('\\', '/');
        String copies = figures == null ? "" : " `results.json` and `repetitions.csv` are also in `" + relative + "`.";
        text = text.replace("## Files\n\n", "## Files\n\nIn the run's results folder (`" + folder + "`): ");
        return text.replace("(each node's console).\n", "(each node's console)." + copies + "\n");
    }
}

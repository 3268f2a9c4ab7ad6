package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.report.ResultFiles;
import kr.c4i.gateway.scenarios.report.Targets;

/** {@code scenarios report}: renders a run's report, CSV and charts again from its results.json (no root needed). */
@Command(name = "report", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Render a run's report and charts again from its results.json.",
        description = { "Reads <folder>/results.json and writes report.md, repetitions.csv and the charts into the same "
                + "folder. Needs no root and runs no experiment.", "" })
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Parameters(paramLabel = "FOLDER", description = "A run's results folder (or its results.json).")
    Path folder;

    @Option(names = "--publish", description = "Also write the report to this Markdown file.")
    @Nullable Path publish;

    @Option(names = "--publish-figures", description = "With --publish: copy the charts here and link them from it.")
    @Nullable Path publishFigures;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        RunResult run = ResultFiles.read(folder);
        Path dir = folder.toFile().isDirectory() ? folder : folder.toAbsolutePath().getParent();
        String report = ResultFiles.writeAll(run, dir);
        if (publish != null) {
            Publisher.publish(report, dir, publish, publishFigures);
        }
        var checks = Targets.evaluate(run);
        checks.forEach(c -> out.printf("%-12s %s: %s%n", c.status(), c.description(), c.measured()));
        out.println("Report: " + dir.resolve(ResultFiles.REPORT).toAbsolutePath());
        if (!run.problems().isEmpty()) {
            return ExitCodes.INCOMPLETE;
        }
        return Targets.anyMissed(checks) ? ExitCodes.TARGET_MISSED : ExitCodes.OK;
    }
}

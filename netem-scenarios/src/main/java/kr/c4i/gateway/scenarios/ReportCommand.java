package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import kr.c4i.gateway.tools.ExitCode;

/**
 * {@code scenarios report}: renders runs' reports, CSV and charts again from their results.json (no root needed),
 * and publishes them on one page.
 */
@Command(name = "report", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Render runs' reports and charts again from their results.json.",
        description = { "Reads <folder>/results.json and writes report.md, repetitions.csv and the charts into the same "
                + "folder, for each folder given. With --publish, all of them go on one page, in the order given "
                + "(e.g. a run of the recovery and 1:N experiments and a separate, longer run of the loss "
                + "experiment). Needs no root and runs no experiment.", "" })
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Parameters(paramLabel = "FOLDER", arity = "1..*", description = "A run's results folder (or its results.json).")
    List<Path> folders;

    @Option(names = "--publish", description = "Also write the report to this Markdown file.")
    @Nullable Path publish;

    @Option(names = "--publish-figures", description = "With --publish: copy the charts here (with several runs, into a "
            + "folder per run) and link them from it.")
    @Nullable Path publishFigures;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Publisher.Run> published = new ArrayList<>();
        int exit = ExitCode.OK.code();
        for (Path folder : folders) {
            RunResult run = ResultFiles.read(folder);
            Path dir = folder.toFile().isDirectory() ? folder : folder.toAbsolutePath().getParent();
            published.add(new Publisher.Run(ResultFiles.writeAll(run, dir), dir));
            var checks = Targets.evaluate(run);
            checks.forEach(c -> out.printf("%-12s %s: %s%n", c.status(), c.description(), c.measured()));
            out.println("Report: " + dir.resolve(ResultFiles.REPORT).toAbsolutePath());
            if (!run.problems().isEmpty()) {
                exit = ExitCode.INCOMPLETE.code();
            }
            else if (exit == ExitCode.OK.code() && Targets.anyMissed(checks)) {
                exit = ExitCode.TARGET_MISSED.code();
            }
        }
        if (publish != null) {
            Publisher.publish(published, publish, publishFigures);
        }
        return exit;
    }
}

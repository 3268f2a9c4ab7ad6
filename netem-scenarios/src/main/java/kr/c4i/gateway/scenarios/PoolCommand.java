package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.report.PooledRuns;
import kr.c4i.gateway.scenarios.report.ResultFiles;
import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios pool}: the repetitions of several runs of one plan, as one results folder. */
@Command(name = "pool", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Pool the repetitions of runs of the same plan into one results folder.",
        description = { "For measuring the study's 15 repetitions in parts: e.g. three runs of '--experiments loss "
                + "-r 5' pooled into one of 15 repetitions per cell. The runs must have the same plan (apart from "
                + "repetitions) and setup. Writes results.json, report.md, repetitions.csv and the charts into "
                + "--output; 'scenarios report' publishes it like any run. Needs no root.", "" })
final class PoolCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FOLDER", arity = "2..*", description = "Runs' results folders (or their results.json).")
    List<Path> folders;

    @Option(names = { "-o", "--output" }, required = true, description = "Folder for the pooled run.")
    Path output;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<RunResult> runs = new ArrayList<>();
        for (Path folder : folders) {
            runs.add(ResultFiles.read(folder));
        }
        String command = "bin/scenarios " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
        RunResult pooled = PooledRuns.pool(runs, command);
        Files.createDirectories(output);
        ResultFiles.writeAll(pooled, output);
        out.println("Pooled " + pooled.repetitions().size() + " repetitions of " + runs.size() + " runs: "
                + output.resolve(ResultFiles.REPORT).toAbsolutePath());
        return pooled.problems().isEmpty() ? ExitCode.OK.code() : ExitCode.INCOMPLETE.code();
    }
}

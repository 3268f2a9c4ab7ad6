package kr.c4i.gateway.scenarios.report;

import kr.c4i.gateway.scenarios.experiment.RunResult;

/** Lets CLI tests in another package use the sample runs. */
public final class SampleRunsAccess {

    private SampleRunsAccess() {
    }

    public static RunResult ddsWins() {
        return SampleRuns.ddsWins();
    }

    public static RunResult ddsLoses() {
        return SampleRuns.ddsLoses();
    }
}

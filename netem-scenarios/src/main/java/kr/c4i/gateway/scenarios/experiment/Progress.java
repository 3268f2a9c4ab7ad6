package kr.c4i.gateway.scenarios.experiment;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Where a long run stands: one step per deployment start and per repetition. A progress bar on a terminal, a
 * line per step elsewhere (CI logs), or nothing.
 */
public interface Progress extends AutoCloseable {

    /** What is running now. */
    void status(String message);

    /** One step done. */
    void step(String message);

    @Override
    void close();

    /** A progress bar (me.tongfei progressbar) on the given stream. */
    static Progress bar(int steps, PrintStream stream) {
        ProgressBar bar = new ProgressBarBuilder().setTaskName("scenarios").setInitialMax(steps)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500).continuousUpdate()
                .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(stream, 140)).build();
        return new Progress() {
            @Override
            public void status(String message) {
                bar.setExtraMessage(message);
            }

            @Override
            public void step(String message) {
                bar.setExtraMessage(message);
                bar.step();
            }

            @Override
            public void close() {
                bar.close();
            }
        };
    }

    /** {@code [3/24 02:15] jms recovery 2/15: 412 ms}: a line per step, for logs. */
    static Progress lines(int steps, PrintWriter out) {
        Instant start = Instant.now();
        return new Progress() {
            private int done;

            @Override
            public void status(String message) {
                out.println("[" + done + "/" + steps + " " + elapsed() + "] " + message + " ...");
                out.flush();
            }

            @Override
            public void step(String message) {
                done++;
                out.println("[" + done + "/" + steps + " " + elapsed() + "] " + message);
                out.flush();
            }

            @Override
            public void close() {
                out.flush();
            }

            private String elapsed() {
                long s = Duration.between(start, Instant.now()).toSeconds();
                return String.format("%02d:%02d", s / 60, s % 60);
            }
        };
    }

    static Progress none() {
        return new Progress() {
            @Override
            public void status(String message) {
            }

            @Override
            public void step(String message) {
            }

            @Override
            public void close() {
            }
        };
    }
}

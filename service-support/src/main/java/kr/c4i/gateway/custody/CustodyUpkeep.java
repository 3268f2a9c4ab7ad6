package kr.c4i.gateway.custody;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Background upkeep of the custody log (pruning it, merging its index): a round every interval on a thread of its
 * own, never on a custody step's. A round that fails (the database away) is counted and logged once, with the
 * interval it is tried again at, until a round succeeds again.
 */
abstract sealed class CustodyUpkeep implements SmartLifecycle permits CustodyPruner, CustodyIndexMerger {

    private static final Logger log = LoggerFactory.getLogger(CustodyUpkeep.class);

    private final String thread;
    private final Duration every;
    private final String task;
    private final String activity;
    private final Counter failures;
    private @Nullable ScheduledExecutorService scheduler;
    private boolean failing;

    /**
     * @param thread the name of its thread
     * @param task what a round does, for the log: {@code prune the custody log}
     * @param activity the same as a subject: {@code Pruning the custody log}
     * @param failures where failed rounds are counted
     */
    CustodyUpkeep(String thread, Duration every, String task, String activity, Counter failures) {
        this.thread = thread;
        this.every = every;
        this.task = task;
        this.activity = activity;
        this.failures = failures;
    }

    /** One round; what it throws is counted and logged by {@link #roundQuietly}. */
    abstract void round() throws SQLException;

    /** One round, as the upkeep's thread runs it: failures are counted and logged, never thrown. */
    final void roundQuietly() {
        try {
            round();
            if (failing) {
                failing = false;
                log.info("{} works again", activity);
            }
        }
        catch (SQLException | RuntimeException ex) {
            failures.increment();
            if (!failing) {
                failing = true;
                log.warn("Unable to {} (tried again every {}; not logged again until it works): {}", task, every,
                        ex.toString());
            }
        }
    }

    @Override
    public final synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(thread).factory());
        scheduler.scheduleWithFixedDelay(this::roundQuietly, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public final synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        scheduler = null;
    }

    @Override
    public final synchronized boolean isRunning() {
        return scheduler != null;
    }
}

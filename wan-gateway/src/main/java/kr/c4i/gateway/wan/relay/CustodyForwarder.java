package kr.c4i.gateway.wan.relay;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.retry.Pause;
import kr.c4i.gateway.wan.store.ForwardedCustody;
import kr.c4i.gateway.wan.store.ForwardedStep;

/**
 * The one thread that forwards this gateway's custody steps with messages from other sites to their origins' sites:
 * it takes the queued rows of the custody log oldest first, stores their steps for the WAN as envelopes of their own
 * ({@link CustodyEnvelopes}, ROUTINE), and takes a row off the queue once every step of it is stored, absorbed or
 * cannot be routed. A store that refuses them (full at ROUTINE's tier) or a database that fails leaves the rows
 * queued; they are tried again after a pause that doubles up to {@link #MAX_PAUSE}, and data is never held up.
 */
final class CustodyForwarder implements Runnable {

    /** What the forwarder stores, and how it says which steps are taken care of. */
    interface Relay {
        /** Stores the steps for the WAN; returns the ids of those stored, absorbed as duplicates, or unroutable. */
        Set<String> forward(List<Envelope> steps) throws SQLException;
    }

    private static final Logger log = LoggerFactory.getLogger(CustodyForwarder.class);

    /** How often an idle forwarder looks at the queue: steps wait at most this long before they are stored. */
    static final Duration IDLE = Duration.ofSeconds(1);
    static final Duration MAX_PAUSE = Duration.ofSeconds(30);
    /** The most queued rows taken at once. */
    static final int BATCH_ROWS = 200;

    private final ForwardedCustody queue;
    private final Relay relay;
    private final int maxIdBytes;
    private final Backoff backoff = new Backoff(IDLE, MAX_PAUSE);
    private final AtomicLong failures = new AtomicLong();
    private final Pause pause = new Pause();
    private volatile boolean running = true;

    /** @param maxIdBytes the message ids one step may name, so that it crosses in one frame of the link */
    CustodyForwarder(ForwardedCustody queue, Relay relay, int maxIdBytes) {
        this.queue = queue;
        this.relay = relay;
        this.maxIdBytes = maxIdBytes;
    }

    void stop() {
        running = false;
        pause.wake();
    }

    @Override
    public void run() {
        while (running) {
            Duration wait = IDLE;
            try {
                if (round() == BATCH_ROWS) {
                    wait = Duration.ZERO;
                }
                backoff.reset();
            }
            catch (SQLException | RuntimeException ex) {
                wait = backoff.next();
                if (Long.bitCount(failures.incrementAndGet()) == 1) {
                    log.warn("Unable to forward custody steps to their origins' sites ({}); trying again in {} ms "
                            + "(failure #{}; the steps stay queued)", ex.toString(), wait.toMillis(), failures.get());
                }
            }
            if (running && !pause.await(wait)) {
                running = false;
            }
        }
    }

    /**
     * One pass over the oldest queued rows.
     *
     * @return how many rows it looked at
     * @throws SQLException when the store refused some (they stay queued) or the database failed
     */
    int round() throws SQLException {
        List<ForwardedCustody.Pending> rows = queue.pending(BATCH_ROWS, maxIdBytes);
        if (rows.isEmpty()) {
            return 0;
        }
        List<Envelope> envelopes = new ArrayList<>();
        for (ForwardedCustody.Pending row : rows) {
            row.steps().forEach(step -> envelopes.add(CustodyEnvelopes.envelope(step)));
        }
        Set<String> taken = envelopes.isEmpty() ? Set.of() : relay.forward(envelopes);
        List<Long> done = new ArrayList<>();
        int refused = 0;
        for (ForwardedCustody.Pending row : rows) {
            long missing = row.steps().stream().map(ForwardedStep::forwardedAs).filter(id -> !taken.contains(id))
                    .count();
            if (missing == 0) {
                done.add(row.logId());
            }
            else {
                refused++;
            }
        }
        queue.done(done);
        if (refused > 0) {
            throw new SQLException("the relay store did not take the steps of " + refused + " rows (full at "
                    + "ROUTINE's tier?)");
        }
        return rows.size();
    }

}

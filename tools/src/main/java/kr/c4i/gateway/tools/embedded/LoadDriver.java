package kr.c4i.gateway.tools.embedded;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.tools.embedded.KmtfLoadGenerator.RowKind;

/**
 * Feeds an outbox at a steady rate, in small batches every 10 ms, the way many application
 * threads inserting one message each would look to the database.
 */
final class LoadDriver {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final RowKind[] BAD = { RowKind.MALFORMED, RowKind.OVERSIZE, RowKind.UNKNOWN_TYPE };

    private final KmtfLoadGenerator generator;
    private final InterfaceDatabaseClient outbox;
    private final AtomicLong good = new AtomicLong();
    private final AtomicLong bad = new AtomicLong();

    LoadDriver(KmtfLoadGenerator generator, DataSource outbox) {
        this.generator = generator;
        this.outbox = new InterfaceDatabaseClient(outbox);
    }

    /**
     * Inserts {@code messages} valid messages plus one refused row after every {@code badEvery}
     * valid ones (0: none).
     *
     * @param ratePerSecond messages per second; 0 inserts as fast as the database takes them
     */
    void drive(long messages, int ratePerSecond, int badEvery) throws SQLException, InterruptedException {
        int batch = ratePerSecond == 0 ? 1000 : Math.max(1, ratePerSecond / 100);
        long start = System.nanoTime();
        long written = 0;
        while (written < messages) {
            List<RowKind> kinds = new ArrayList<>(batch + 1);
            for (int i = 0; i < batch && written < messages; i++) {
                kinds.add(RowKind.GOOD);
                written++;
                if (badEvery > 0 && written % badEvery == 0) {
                    kinds.add(BAD[(int) (written / badEvery % BAD.length)]);
                }
            }
            generator.insert(outbox, kinds);
            long goodRows = kinds.stream().filter(k -> k == RowKind.GOOD).count();
            good.addAndGet(goodRows);
            bad.addAndGet(kinds.size() - goodRows);
            if (ratePerSecond > 0) {
                long due = start + written * TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(Math.min(wait, TICK_NANOS * 10));
                }
            }
        }
    }

    long good() {
        return good.get();
    }

    long bad() {
        return bad.get();
    }
}

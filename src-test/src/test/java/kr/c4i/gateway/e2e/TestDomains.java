package kr.c4i.gateway.e2e;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * DDS domain ids for the clusters of these suites. Failsafe runs the suites in two JVMs at once, so each fork draws
 * from a band of 100 ids of its own ({@code e2e.fork}, Failsafe's fork number); within it, successive clusters of one
 * JVM take successive ranges, so a cluster never meets the one before it or a cluster of the other fork. Under
 * Cyclone's 232 (its port mapping), and the same for every transport and cluster kind.
 */
final class TestDomains {

    private static final int BAND = 100;
    private static final AtomicInteger TAKEN = new AtomicInteger();

    private TestDomains() {
    }

    /** The first of {@code count} consecutive domain ids for one cluster. */
    static int take(int count) {
        int fork = Integer.getInteger("e2e.fork", 1);
        if (fork < 1 || fork > 2) {
            throw new IllegalStateException("e2e.fork is " + fork + "; these suites have domain bands for forks 1 and 2");
        }
        int slots = BAND / count;
        long start = ProcessHandle.current().pid() * 7 + TAKEN.getAndIncrement();
        return 1 + BAND * (fork - 1) + (int) (start % slots) * count;
    }
}

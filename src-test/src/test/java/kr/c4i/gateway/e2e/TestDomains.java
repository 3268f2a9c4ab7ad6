package kr.c4i.gateway.e2e;

/**
 * DDS domain ids for the clusters of these suites. Failsafe runs the suites in two JVMs at once, so each fork draws
 * from a band of 100 ids of its own ({@code e2e.fork}, Failsafe's fork number); within it, successive clusters of one
 * JVM take successive ids, whatever their count, so a cluster never meets the one before it or a cluster of the other
 * fork. Under Cyclone's 232 (its port mapping), and the same for every transport and cluster kind.
 */
final class TestDomains {

    private static final int BAND = 100;
    // Where this JVM starts in its band: spread by pid, so a rerun does not reuse the last run's ids first.
    private static int next = (int) (ProcessHandle.current().pid() * 7 % BAND);

    private TestDomains() {
    }

    /** The first of {@code count} consecutive domain ids for one cluster. */
    static synchronized int take(int count) {
        if (next + count > BAND) {
            next = 0;
        }
        int first = 1 + BAND * (fork() - 1) + next;
        next += count;
        return first;
    }

    /**
     * Failsafe's fork number, 1 when run outside Failsafe (one JVM). Present but not 1 or 2 is refused: a silent
     * default would put both forks in one band, where a secured cluster meets the other fork's unsecured one.
     */
    private static int fork() {
        String fork = System.getProperty("e2e.fork");
        if (fork == null) {
            return 1;
        }
        if (!fork.equals("1") && !fork.equals("2")) {
            throw new IllegalStateException("e2e.fork is '" + fork + "'; these suites have domain bands for forks 1 "
                    + "and 2 (src-test's pom passes Failsafe's fork number, escaped as $${surefire.forkNumber})");
        }
        return Integer.parseInt(fork);
    }
}

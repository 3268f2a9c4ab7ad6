package kr.c4i.gateway.tools.embedded;

import java.util.ArrayList;
import java.util.List;

import kr.c4i.gateway.core.NodeId;

/**
 * One figure a soak records at every sample: a column of its CSV, a key of its JSON, a chart of its plot.
 *
 * @param column e.g. {@code jvm_rss_mb}
 * @param title what the chart says it shows
 * @param unit e.g. {@code MB}; empty for a count
 * @param judged whether the verdict judges its growth: memory, threads and open files, what a leak makes grow, where
 *        they hold still without one
 */
record SoakMetric(String column, String title, String unit, boolean judged) {

    static final SoakMetric JVM_RSS = new SoakMetric("jvm_rss_mb", "JVM resident memory after the full GC (VmRSS)",
            "MB", true);
    static final SoakMetric HEAP_AFTER_GC = new SoakMetric("heap_after_gc_mb", "heap after the full GC", "MB", true);
    static final SoakMetric GC_TIME = new SoakMetric("gc_time_ms", "GC time, cumulative, the soak's own excluded",
            "ms", false);
    static final SoakMetric SAMPLE_GC = new SoakMetric("sample_gc_ms", "the soak's full GC before the sample", "ms",
            false);
    static final SoakMetric JVM_THREADS = new SoakMetric("jvm_threads", "JVM threads, Java and native", "", true);
    static final SoakMetric JAVA_THREADS = new SoakMetric("java_threads", "Java live threads", "", false);
    static final SoakMetric JVM_OPEN_FILES = new SoakMetric("jvm_open_files", "JVM open file descriptors", "", true);
    static final SoakMetric OUTBOX_LAG = new SoakMetric("outbox_lag", "outbox lag: rows not yet sent", "", false);
    static final SoakMetric INBOX_LAG = new SoakMetric("inbox_lag", "inbox lag: sent, not yet in the inbox", "",
            false);
    static final SoakMetric DELIVERED = new SoakMetric("delivered_per_s", "arrivals since the last sample", "msg/s",
            false);
    static final SoakMetric LATENCY_P50 = new SoakMetric("latency_p50_ms", "latency p50 since the last sample", "ms",
            false);
    static final SoakMetric LATENCY_P99 = new SoakMetric("latency_p99_ms", "latency p99 since the last sample", "ms",
            false);
    static final SoakMetric LOAD = new SoakMetric("load_1m", "machine load average, 1 min", "", false);

    /**
     * The node's PostgreSQL memory: the proportional set size (PSS) of its postmaster and every backend, summed.
     * Summing their VmRSS would count the shared buffers once per process. Not judged as a whole: its shared part
     * fills up to {@code shared_buffers} as the database grows, by design.
     */
    static SoakMetric databaseMemory(NodeId node) {
        return new SoakMetric("pg_" + node + "_memory_mb", "node " + node + " PostgreSQL memory (PSS, all processes)",
                "MB", false);
    }

    /** The private part of {@link #databaseMemory}: what the backends allocated, where a leak of theirs shows. */
    static SoakMetric databasePrivateMemory(NodeId node) {
        return new SoakMetric("pg_" + node + "_private_mb", "node " + node + " PostgreSQL private memory (PSS anon)",
                "MB", true);
    }

    /** The shared part of {@link #databaseMemory}: the shared buffers as far as they are in use, and the like. */
    static SoakMetric databaseSharedMemory(NodeId node) {
        return new SoakMetric("pg_" + node + "_shared_mb", "node " + node + " PostgreSQL shared memory (PSS shmem)",
                "MB", false);
    }

    /**
     * Not judged: with no process more, the count rose by a fifth from minute 5 to 9 of a 10-minute run and fell back
     * (329, 403, 346; 2026-11-26), files held open for a while, most likely through the timed checkpoint every 5
     * minutes. A connection the bridge leaked would show in the process count and the private memory.
     */
    static SoakMetric databaseOpenFiles(NodeId node) {
        return new SoakMetric("pg_" + node + "_open_files", "node " + node + " PostgreSQL open file descriptors", "",
                false);
    }

    static SoakMetric databaseProcesses(NodeId node) {
        return new SoakMetric("pg_" + node + "_processes", "node " + node + " PostgreSQL processes", "", false);
    }

    /** {@code pg_database_size}: grows by design, the soak keeps every row. */
    static SoakMetric databaseSize(NodeId node) {
        return new SoakMetric("db_" + node + "_size_mb", "node " + node + " database size", "MB", false);
    }

    /** Every figure of a run of these nodes, in the CSV's order: the JVM's, each database's, then the traffic's. */
    static List<SoakMetric> all(List<NodeId> nodes) {
        List<SoakMetric> all = new ArrayList<>(List.of(JVM_RSS, HEAP_AFTER_GC, GC_TIME, SAMPLE_GC, JVM_THREADS,
                JAVA_THREADS, JVM_OPEN_FILES));
        for (NodeId node : nodes) {
            all.addAll(List.of(databaseMemory(node), databasePrivateMemory(node), databaseSharedMemory(node),
                    databaseOpenFiles(node), databaseProcesses(node), databaseSize(node)));
        }
        all.addAll(List.of(OUTBOX_LAG, INBOX_LAG, DELIVERED, LATENCY_P50, LATENCY_P99, LOAD));
        return List.copyOf(all);
    }

    /** The title with its unit, e.g. {@code JVM resident memory (VmRSS), MB}. */
    String label() {
        return unit.isEmpty() ? title : title + ", " + unit;
    }
}

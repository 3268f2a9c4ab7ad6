package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.sun.management.GcInfo;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.tools.embedded.InboxProbe.Latency;

/**
 * Takes a soak's samples of a running cluster. The nodes' bridges (and for JMS their brokers) run in this JVM with the
 * load generator, so the JVM's figures are the nodes' together; each node's PostgreSQL is a process tree of its own.
 * <p>
 * Each sample reads the traffic, then runs a full GC ({@link System#gc()}): the heap after it is the live heap,
 * where the heap after G1's last young collection also holds the garbage promoted since its last marking, a sawtooth
 * that would make two samples an hour apart say growth or shrinkage at random. The resident memory is read after it
 * too, with the heap shrunk to what the live heap needs, so that it says what the process holds rather than how far
 * G1 let the heap expand. That GC's pause is recorded on its own, left out of the cumulative GC time, and felt by the
 * latency of the messages in flight, which the next sample reports.
 */
final class SoakSampler {

    private static final double MB = 1024.0 * 1024.0;

    private final EmbeddedCluster cluster;
    private final LongSupplier written;
    private final Instant start;
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    private long ownGcMillis;
    /** When the last sample was taken: the next one's arrivals and latency are those since. */
    private @Nullable Instant previous;

    /**
     * @param written how many rows the load has written into node a's outbox so far
     * @param start when the load started: samples count their time from it
     */
    SoakSampler(EmbeddedCluster cluster, LongSupplier written, Instant start) {
        this.cluster = cluster;
        this.written = written;
        this.start = start;
    }

    SoakSample sample() throws SQLException, IOException {
        Instant at = Instant.now();
        Map<String, Double> values = new LinkedHashMap<>();
        // The traffic first, before this sample's own GC pause holds the bridges up: the backlog, what was written,
        // then the inbox, one right after the other (a count sees the table as it was when it began, however long it
        // takes); sent is written less unsent. The outbox is not counted, nor its unsent rows (it has no index on
        // sent_at): a scan of a table that grows by 30,000 rows a minute would be the soak's own load. The bridge's
        // own gauge has the backlog.
        long unsent = (long) cluster.publisher().backlog().orElse(0);
        long sent = written.getAsLong() - unsent;
        DataSource inbox = cluster.receivers().getFirst().database();
        long received = InboxProbe.inbox(inbox);
        values.put(SoakMetric.OUTBOX_LAG.column(), (double) unsent);
        values.put(SoakMetric.INBOX_LAG.column(), (double) Math.max(0, sent - received));
        if (previous != null) {
            Latency window = InboxProbe.arrivalsSince(inbox, previous);
            values.put(SoakMetric.DELIVERED.column(), window.rows() / (Duration.between(previous, at).toNanos() / 1e9));
            if (window.rows() > 0) {
                values.put(SoakMetric.LATENCY_P50.column(), window.p50Millis());
                values.put(SoakMetric.LATENCY_P99.column(), window.p99Millis());
            }
        }

        long gcBefore = gcMillis();
        System.gc();
        long sampleGc = gcMillis() - gcBefore;
        ownGcMillis += sampleGc;
        values.put(SoakMetric.SAMPLE_GC.column(), (double) sampleGc);
        values.put(SoakMetric.GC_TIME.column(), (double) (gcMillis() - ownGcMillis));
        values.put(SoakMetric.HEAP_AFTER_GC.column(), heapAfterLastGc() / MB);
        ProcessFigures.of(ProcessHandle.current()).ifPresent(jvm -> {
            values.put(SoakMetric.JVM_RSS.column(), jvm.rssKb() / 1024);
            values.put(SoakMetric.JVM_THREADS.column(), jvm.threads());
            values.put(SoakMetric.JVM_OPEN_FILES.column(), jvm.openFiles());
        });
        values.put(SoakMetric.JAVA_THREADS.column(), (double) ManagementFactory.getThreadMXBean().getThreadCount());

        for (EmbeddedNode node : cluster.nodes()) {
            ProcessFigures.ofTree(node.databaseServer()).ifPresent(server -> {
                values.put(SoakMetric.databaseMemory(node.id()).column(), server.pssKb() / 1024);
                values.put(SoakMetric.databasePrivateMemory(node.id()).column(), server.anonymousKb() / 1024);
                values.put(SoakMetric.databaseSharedMemory(node.id()).column(), server.sharedMemoryKb() / 1024);
                values.put(SoakMetric.databaseOpenFiles(node.id()).column(), server.openFiles());
                values.put(SoakMetric.databaseProcesses(node.id()).column(), (double) server.processes());
            });
            values.put(SoakMetric.databaseSize(node.id()).column(),
                    one(node.database(), "SELECT pg_database_size(current_database())") / MB);
        }
        LoadAverage.read().ifPresent(load -> values.put(SoakMetric.LOAD.column(), load.oneMinute()));
        previous = at;
        return new SoakSample(Duration.between(start, at), at, values);
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(ms -> ms > 0).sum();
    }

    /** The heap as the JVM's last collection left it: the full GC just asked for, unless another came after. */
    private double heapAfterLastGc() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(com.sun.management.GarbageCollectorMXBean.class::isInstance)
                .map(gc -> ((com.sun.management.GarbageCollectorMXBean) gc).getLastGcInfo())
                .filter(Objects::nonNull).max(Comparator.comparingLong(GcInfo::getEndTime))
                .map(info -> info.getMemoryUsageAfterGc().entrySet().stream()
                        .filter(pool -> heapPools.contains(pool.getKey())).map(Map.Entry::getValue)
                        .mapToDouble(MemoryUsage::getUsed).sum())
                .orElse(Double.NaN);
    }

    private static double one(DataSource db, String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getDouble(1);
        }
    }
}

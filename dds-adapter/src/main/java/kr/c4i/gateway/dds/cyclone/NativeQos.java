package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;

import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;

/** Translates a {@link Qos} into a {@code dds_qos_t}. */
final class NativeQos {

    private NativeQos() {
    }

    /**
     * A new {@code dds_qos_t}; the caller deletes it with {@link Ddsc#deleteQos} in a {@code finally}. Partition
     * names are allocated in {@code arena}, which Cyclone copies from.
     */
    static MemorySegment create(Ddsc ddsc, Qos qos, Arena arena) {
        MemorySegment q = ddsc.createQos();
        try {
            ddsc.qsetReliability(q, qos.reliability() == Qos.Reliability.RELIABLE
                    ? DdscLayouts.DDS_RELIABILITY_RELIABLE : DdscLayouts.DDS_RELIABILITY_BEST_EFFORT,
                    nanos(qos.maxBlockingTime()));
            ddsc.qsetHistory(q, historyKind(qos.history()), depth(qos.history()));
            ddsc.qsetDurability(q, durability(qos.durability()));
            if (qos.durability() != Qos.Durability.VOLATILE) {
                ddsc.qsetDurabilityService(q, 0L, historyKind(qos.durabilityHistory()),
                        depth(qos.durabilityHistory()), DdscLayouts.DDS_LENGTH_UNLIMITED,
                        DdscLayouts.DDS_LENGTH_UNLIMITED, DdscLayouts.DDS_LENGTH_UNLIMITED);
            }
            if (!qos.deadline().isZero()) {
                ddsc.qsetDeadline(q, nanos(qos.deadline()));
            }
            if (!qos.lifespan().isZero()) {
                ddsc.qsetLifespan(q, nanos(qos.lifespan()));
            }
            List<String> partitions = qos.partitions();
            if (!partitions.isEmpty()) {
                MemorySegment names = arena.allocate(ADDRESS, partitions.size());
                for (int i = 0; i < partitions.size(); i++) {
                    names.setAtIndex(ADDRESS, i, arena.allocateFrom(partitions.get(i)));
                }
                ddsc.qsetPartition(q, partitions.size(), names);
            }
            if (qos.transportPriority() != 0) {
                ddsc.qsetTransportPriority(q, qos.transportPriority());
            }
            if (qos.maxSamples() > 0) {
                ddsc.qsetResourceLimits(q, qos.maxSamples(), DdscLayouts.DDS_LENGTH_UNLIMITED,
                        DdscLayouts.DDS_LENGTH_UNLIMITED);
            }
            return q;
        }
        catch (RuntimeException | Error ex) {
            ddsc.deleteQos(q);
            throw ex;
        }
    }

    static long nanos(Duration duration) {
        try {
            return duration.toNanos();
        }
        catch (ArithmeticException ex) {
            return DdscLayouts.DDS_INFINITY;
        }
    }

    private static int historyKind(Qos.History history) {
        return history.kind() == Qos.HistoryKind.KEEP_ALL ? DdscLayouts.DDS_HISTORY_KEEP_ALL
                : DdscLayouts.DDS_HISTORY_KEEP_LAST;
    }

    private static int depth(Qos.History history) {
        return history.kind() == Qos.HistoryKind.KEEP_ALL ? DdscLayouts.DDS_LENGTH_UNLIMITED : history.depth();
    }

    private static int durability(Qos.Durability durability) {
        return switch (durability) {
            case VOLATILE -> DdscLayouts.DDS_DURABILITY_VOLATILE;
            case TRANSIENT_LOCAL -> DdscLayouts.DDS_DURABILITY_TRANSIENT_LOCAL;
            case TRANSIENT -> DdscLayouts.DDS_DURABILITY_TRANSIENT;
            case PERSISTENT -> DdscLayouts.DDS_DURABILITY_PERSISTENT;
        };
    }
}

package kr.c4i.gateway.dds;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The QoS policies this project sets on writers and readers. Every policy has an explicit value, because vendor
 * defaults differ (Cyclone's history default is KEEP_LAST 1, which silently drops bursts). Immutable; derive
 * variants with the {@code with…} methods.
 *
 * @param reliability whether lost samples are repaired
 * @param maxBlockingTime how long a reliable writer's {@code write} may block while its history is full before
 *        it fails with {@link DdsException.Timeout}
 * @param history what a writer keeps for repair and a reader keeps until taken
 * @param durability whether late-joining readers receive samples written before they matched
 * @param durabilityHistory for a TRANSIENT_LOCAL writer: how many samples it keeps for late joiners
 *        (the DDS durability-service history); ignored otherwise. KEEP_ALL here keeps every sample ever written,
 *        in memory, for the writer's life
 * @param deadline the maximum expected interval between samples, {@link Duration#ZERO} for none
 * @param lifespan how long a written sample stays valid, {@link Duration#ZERO} for ever
 * @param partitions DDS partitions; writers and readers match only if they share one; empty for the default
 * @param transportPriority a hint for the transport (e.g. DSCP), 0 by default
 * @param maxSamples the most samples a reader holds before it rejects new ones (the DDS resource limit
 *        {@code max_samples}, counted in its sample-rejected status), 0 for no limit; what bounds a KEEP_ALL reader
 */
public record Qos(Reliability reliability, Duration maxBlockingTime, History history, Durability durability,
        History durabilityHistory, Duration deadline, Duration lifespan, List<String> partitions,
        int transportPriority, int maxSamples) {

    /** Whether lost samples are repaired. */
    public enum Reliability {
        BEST_EFFORT, RELIABLE
    }

    /** Keep the last {@code depth} samples, or all of them (bounded by flow control). */
    public enum HistoryKind {
        KEEP_LAST, KEEP_ALL
    }

    /** The four DDS durability levels. */
    public enum Durability {
        VOLATILE, TRANSIENT_LOCAL, TRANSIENT, PERSISTENT
    }

    /**
     * A history policy.
     *
     * @param kind keep last or keep all
     * @param depth samples kept for KEEP_LAST, at least 1; ignored for KEEP_ALL
     */
    public record History(HistoryKind kind, int depth) {

        public History {
            Objects.requireNonNull(kind, "kind");
            if (kind == HistoryKind.KEEP_LAST && depth < 1) {
                throw new IllegalArgumentException("KEEP_LAST history depth must be at least 1, was " + depth);
            }
        }

        public static History keepAll() {
            return new History(HistoryKind.KEEP_ALL, 0);
        }

        public static History keepLast(int depth) {
            return new History(HistoryKind.KEEP_LAST, depth);
        }
    }

    public Qos {
        Objects.requireNonNull(reliability, "reliability");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(durabilityHistory, "durabilityHistory");
        maxBlockingTime = nonNegative(maxBlockingTime, "maxBlockingTime");
        deadline = nonNegative(deadline, "deadline");
        lifespan = nonNegative(lifespan, "lifespan");
        partitions = List.copyOf(partitions);
        if (maxSamples < 0) {
            throw new IllegalArgumentException("maxSamples must not be negative, was " + maxSamples);
        }
        for (String partition : partitions) {
            if (partition.isEmpty() || partition.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("Invalid partition name '" + partition + "'");
            }
        }
    }

    /** RELIABLE, KEEP_ALL, VOLATILE, blocking up to 10 s: lossless delivery to matched readers. */
    public static Qos reliable() {
        return new Qos(Reliability.RELIABLE, Duration.ofSeconds(10), History.keepAll(), Durability.VOLATILE,
                History.keepLast(1), Duration.ZERO, Duration.ZERO, List.of(), 0, 0);
    }

    /** BEST_EFFORT, KEEP_LAST {@code depth}, VOLATILE. */
    public static Qos bestEffort(int depth) {
        return new Qos(Reliability.BEST_EFFORT, Duration.ofMillis(100), History.keepLast(depth),
                Durability.VOLATILE, History.keepLast(1), Duration.ZERO, Duration.ZERO, List.of(), 0, 0);
    }

    public Qos withHistory(History value) {
        return new Qos(this.reliability, this.maxBlockingTime, value, this.durability, this.durabilityHistory,
                this.deadline, this.lifespan, this.partitions, this.transportPriority, this.maxSamples);
    }

    /** Sets the durability and, for TRANSIENT_LOCAL writers, how much history late joiners receive. */
    public Qos withDurability(Durability value, History lateJoinerHistory) {
        return new Qos(this.reliability, this.maxBlockingTime, this.history, value, lateJoinerHistory,
                this.deadline, this.lifespan, this.partitions, this.transportPriority, this.maxSamples);
    }

    public Qos withMaxBlockingTime(Duration value) {
        return new Qos(this.reliability, value, this.history, this.durability, this.durabilityHistory,
                this.deadline, this.lifespan, this.partitions, this.transportPriority, this.maxSamples);
    }

    public Qos withPartitions(List<String> value) {
        return new Qos(this.reliability, this.maxBlockingTime, this.history, this.durability,
                this.durabilityHistory, this.deadline, this.lifespan, value, this.transportPriority, this.maxSamples);
    }

    public Qos withTransportPriority(int value) {
        return new Qos(this.reliability, this.maxBlockingTime, this.history, this.durability,
                this.durabilityHistory, this.deadline, this.lifespan, this.partitions, value, this.maxSamples);
    }

    public Qos withMaxSamples(int value) {
        return new Qos(this.reliability, this.maxBlockingTime, this.history, this.durability,
                this.durabilityHistory, this.deadline, this.lifespan, this.partitions, this.transportPriority, value);
    }

    private static Duration nonNegative(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
        return value;
    }
}

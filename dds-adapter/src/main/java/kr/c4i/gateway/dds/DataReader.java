package kr.c4i.gateway.dds;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.spi.ReaderDriver;

/**
 * Takes samples of one topic with fixed QoS. Thread-safe. Closing the participant closes it.
 *
 * @param <T> the Java type of a sample
 */
public final class DataReader<T> extends Entity {

    private final ReaderDriver<T> driver;
    private final Topic<T> topic;
    private final Qos qos;

    DataReader(DomainParticipant participant, ReaderDriver<T> driver, Topic<T> topic, Qos qos) {
        super(participant, "reader on " + topic.name());
        this.driver = driver;
        this.topic = topic;
        this.qos = qos;
    }

    /**
     * Removes up to {@code max} samples from the reader and returns the decoded ones, oldest first.
     *
     * @throws IllegalStateException if the reader is closed
     */
    public List<T> take(int max) {
        List<T> samples = new ArrayList<>(Math.min(max, 1024));
        take(max, samples::add);
        return samples;
    }

    /**
     * Removes up to {@code max} samples and passes each decoded one to {@code sink}, without an intermediate list.
     * The sink runs while the reader is in use: it must not close this reader or its participant.
     *
     * @return the number of samples removed, including undecodable ones (see {@link ReaderStatus#undecodable()})
     */
    public int take(int max, Consumer<? super T> sink) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        Objects.requireNonNull(sink, "sink");
        return call(() -> this.driver.take(max, sink));
    }

    /**
     * Like {@link #take(int, Consumer)}, also passing each sample's publication handle: which matched writer wrote
     * it, for {@link #publicationPartitions(long)}.
     */
    public int takeWithPublication(int max, SampleSink<T> sink) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1, was " + max);
        }
        Objects.requireNonNull(sink, "sink");
        return call(() -> this.driver.takeWithPublication(max, sink));
    }

    /**
     * The partitions the matched writer with this publication handle is in, as discovery (under DDS Security:
     * authenticated discovery) reported them; {@code null} if it is no longer matched.
     */
    public @Nullable List<String> publicationPartitions(long publication) {
        return call(() -> this.driver.publicationPartitions(publication));
    }

    /** Receives each taken sample with its publication handle. */
    @FunctionalInterface
    public interface SampleSink<T> {

        void accept(T sample, long publication);
    }

    public ReaderStatus status() {
        return call(this.driver::status);
    }

    public Topic<T> topic() {
        return this.topic;
    }

    public Qos qos() {
        return this.qos;
    }

    ReaderDriver<T> driver() {
        return this.driver;
    }

    @Override
    void closeDriver() {
        this.driver.close();
    }
}

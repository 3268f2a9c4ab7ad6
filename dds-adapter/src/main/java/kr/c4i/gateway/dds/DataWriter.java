package kr.c4i.gateway.dds;

import java.time.Duration;
import java.util.Objects;

import kr.c4i.gateway.dds.spi.WriterDriver;

/**
 * Publishes samples of one topic with fixed QoS. Thread-safe. Closing the participant closes it.
 *
 * @param <T> the Java type of a sample
 */
public final class DataWriter<T> extends Entity {

    private final WriterDriver<T> driver;
    private final Topic<T> topic;
    private final Qos qos;

    DataWriter(DomainParticipant participant, WriterDriver<T> driver, Topic<T> topic, Qos qos) {
        super(participant, "writer on " + topic.name());
        this.driver = driver;
        this.topic = topic;
        this.qos = qos;
    }

    /**
     * Publishes one sample. A RELIABLE writer blocks while its history is full, up to the QoS's maximum blocking
     * time. Readers in this process's domain get it at once. With write batching
     * ({@link ParticipantSettings#writeBatch()}) the copy for remote readers may wait in the writer, to share a
     * datagram with later samples, until the datagram is full, a write blocks on a full history, or
     * {@link #flush()}: call {@code flush} after the last write of a burst.
     *
     * @throws IllegalArgumentException if the sample cannot be encoded; the message names the member
     * @throws DdsException.Timeout if a reliable history stayed full for the maximum blocking time
     * @throws IllegalStateException if the writer is closed
     */
    public void write(T sample) {
        Objects.requireNonNull(sample, "sample");
        run(() -> this.driver.write(sample));
    }

    /**
     * Sends what write batching queued in this writer (see {@link #write}), so remote readers get every sample
     * written so far without waiting for a later write. Cheap when nothing is queued, and a no-op without write
     * batching. May be called from any thread, also while others write.
     *
     * @throws IllegalStateException if the writer is closed
     */
    public void flush() {
        run(this.driver::flush);
    }

    public WriterStatus status() {
        return call(this.driver::status);
    }

    /**
     * Waits until at least {@code readers} readers are matched.
     *
     * @return whether they were matched before the timeout
     */
    public boolean awaitMatched(int readers, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (status().matchedReaders() < readers) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    public Topic<T> topic() {
        return this.topic;
    }

    public Qos qos() {
        return this.qos;
    }

    @Override
    void closeDriver() {
        this.driver.close();
    }
}

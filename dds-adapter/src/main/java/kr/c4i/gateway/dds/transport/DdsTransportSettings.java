package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.Objects;

import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Settings of the DDS transport. Network and vendor configuration are in {@code participant}; without any there,
 * Cyclone reads the standard {@code CYCLONEDDS_URI} environment variable.
 *
 * @param participant domain id, network interface, multicast address, unicast peers, raw vendor configuration and
 *        native library; default domain 0 with the vendor's configuration
 * @param writeTimeout how long {@code send} may block on a RELIABLE topic whose readers do not keep up before it
 *        fails as retryable; default 10 s
 * @param maxBatch the most messages handed to the inbound handler at once; default 256
 * @param redeliveryDelay the first wait before handing a batch that the handler refused to it again; doubles up to
 *        10 s; default 200 ms
 * @param receiptsTopic the topic receipts travel on; default {@code kmtf/gateway/receipts}
 * @param writeBatch whether writers pack many samples into one datagram ({@link ParticipantSettings#writeBatch()},
 *        which this replaces in {@code participant}); {@code send} flushes every writer it wrote to before it
 *        returns, and receipts are flushed as they are written, so no message waits for a later one; default
 *        {@code true}. Its cost is one flush per topic and {@code send}; its gain, 1.5 to 1.7 times the
 *        throughput of small messages between processes. Cyclone takes it per domain: another participant of the
 *        same domain in the same process must use the same value ({@link ParticipantSettings#withWriteBatch}).
 * @param bestEffortBacklog how many samples the reader of a BEST_EFFORT type holds for the receive thread while
 *        it is busy (e.g. committing a batch into the inbox) before it rejects new ones, which are then counted as
 *        dropped; at least the catalogue's history depth of the type. A burst of one type up to this size is never
 *        dropped on a loss-free link; each held sample costs its size in native memory. Default 4096
 */
public record DdsTransportSettings(ParticipantSettings participant, Duration writeTimeout, int maxBatch,
        Duration redeliveryDelay, String receiptsTopic, boolean writeBatch, int bestEffortBacklog) {

    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_BATCH = 256;
    public static final Duration DEFAULT_REDELIVERY_DELAY = Duration.ofMillis(200);
    public static final String DEFAULT_RECEIPTS_TOPIC = "kmtf/gateway/receipts";
    public static final boolean DEFAULT_WRITE_BATCH = true;
    public static final int DEFAULT_BEST_EFFORT_BACKLOG = 4096;

    public DdsTransportSettings {
        Objects.requireNonNull(participant, "participant");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        Objects.requireNonNull(redeliveryDelay, "redeliveryDelay");
        Objects.requireNonNull(receiptsTopic, "receiptsTopic");
        if (writeTimeout.isNegative() || writeTimeout.isZero()) {
            throw new IllegalArgumentException("writeTimeout must be positive, was " + writeTimeout);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        if (redeliveryDelay.isNegative() || redeliveryDelay.isZero()) {
            throw new IllegalArgumentException("redeliveryDelay must be positive, was " + redeliveryDelay);
        }
        if (receiptsTopic.isBlank()) {
            throw new IllegalArgumentException("receiptsTopic must not be blank");
        }
        if (bestEffortBacklog < 1) {
            throw new IllegalArgumentException("bestEffortBacklog must be at least 1, was " + bestEffortBacklog);
        }
    }

    public static DdsTransportSettings defaults() {
        return new DdsTransportSettings(ParticipantSettings.defaults(), DEFAULT_WRITE_TIMEOUT, DEFAULT_MAX_BATCH,
                DEFAULT_REDELIVERY_DELAY, DEFAULT_RECEIPTS_TOPIC, DEFAULT_WRITE_BATCH,
                DEFAULT_BEST_EFFORT_BACKLOG);
    }

    public DdsTransportSettings withParticipant(ParticipantSettings value) {
        return new DdsTransportSettings(value, this.writeTimeout, this.maxBatch, this.redeliveryDelay,
                this.receiptsTopic, this.writeBatch, this.bestEffortBacklog);
    }

    public DdsTransportSettings withWriteTimeout(Duration value) {
        return new DdsTransportSettings(this.participant, value, this.maxBatch, this.redeliveryDelay,
                this.receiptsTopic, this.writeBatch, this.bestEffortBacklog);
    }

    public DdsTransportSettings withMaxBatch(int value) {
        return new DdsTransportSettings(this.participant, this.writeTimeout, value, this.redeliveryDelay,
                this.receiptsTopic, this.writeBatch, this.bestEffortBacklog);
    }

    public DdsTransportSettings withRedeliveryDelay(Duration value) {
        return new DdsTransportSettings(this.participant, this.writeTimeout, this.maxBatch, value,
                this.receiptsTopic, this.writeBatch, this.bestEffortBacklog);
    }

    public DdsTransportSettings withWriteBatch(boolean value) {
        return new DdsTransportSettings(this.participant, this.writeTimeout, this.maxBatch, this.redeliveryDelay,
                this.receiptsTopic, value, this.bestEffortBacklog);
    }

    public DdsTransportSettings withBestEffortBacklog(int value) {
        return new DdsTransportSettings(this.participant, this.writeTimeout, this.maxBatch, this.redeliveryDelay,
                this.receiptsTopic, this.writeBatch, value);
    }

    /** The participant settings the transport joins the domain with: {@code participant} with {@code writeBatch}. */
    ParticipantSettings effectiveParticipant() {
        return this.participant.withWriteBatch(this.writeBatch);
    }
}

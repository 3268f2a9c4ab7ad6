package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.Objects;

import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Settings of the DDS transport. Network and vendor configuration are in {@code participant}; without any there,
 * Cyclone reads the standard {@code CYCLONEDDS_URI} environment variable. Made with {@link #builder}, which takes
 * the settings an operator sets ({@code gateway.dds.*}, whose defaults are stated there) explicitly; a changed copy
 * with {@link #toBuilder()}.
 *
 * @param participant domain id, network, discovery, reliability timing, write batching and vendor configuration.
 *        The transport batches writes ({@link ParticipantSettings#writeBatch()}) unless told otherwise: a
 *        participant that leaves it unset gets {@code true}. {@code send} flushes every writer it wrote to before it
 *        returns, and receipts are flushed as they are written, so no message waits for a later one. Its cost is
 *        one flush per topic and {@code send}; its gain, 1.5 to 1.7 times the throughput of small messages between
 *        processes. Cyclone takes it per domain: another participant of the same domain in the same process must
 *        use the same value.
 * @param writeTimeout how long {@code send} may block on a RELIABLE topic whose readers do not keep up before it
 *        fails as retryable
 * @param maxBatch the most messages handed to the inbound handler at once; default 256
 * @param redeliveryDelay the first wait before handing a batch that the handler refused to it again; doubles up to
 *        10 s; default 200 ms
 * @param receiptsTopic the topic receipts travel on; default {@code kmtf/gateway/receipts}
 * @param bestEffortBacklog how many samples the reader of a BEST_EFFORT type holds for the receive thread while
 *        it is busy (e.g. committing a batch into the inbox) before it rejects new ones, which are then counted as
 *        dropped; at least the catalogue's history depth of the type. A burst of one type up to this size is never
 *        dropped on a loss-free link; each held sample costs its size in native memory
 * @param handshakeRecovery with DDS Security: when the transport recreates its participant because an
 *        authentication handshake failed, which Cyclone 0.10 never tries again; default
 *        {@link HandshakeRecovery#DEFAULT}
 * @param startAnnouncements how often the participant announces itself in its first moments, besides the
 *        periodic announcements; default {@link StartAnnouncements#DEFAULT}
 */
public record DdsTransportSettings(ParticipantSettings participant, Duration writeTimeout, int maxBatch,
        Duration redeliveryDelay, String receiptsTopic, int bestEffortBacklog, HandshakeRecovery handshakeRecovery,
        StartAnnouncements startAnnouncements) {

    public static final int DEFAULT_MAX_BATCH = 256;
    public static final Duration DEFAULT_REDELIVERY_DELAY = Duration.ofMillis(200);
    public static final String DEFAULT_RECEIPTS_TOPIC = "kmtf/gateway/receipts";
    public static final boolean DEFAULT_WRITE_BATCH = true;
    /**
     * The lease a gateway node's participant announces ({@code gateway.dds.lease}, {@code gateway.wan.lan.dds.lease}),
     * Cyclone's being 10 s. A node killed without leaving keeps its readers matched for that long, and each RELIABLE
     * writer (KEEP_ALL) that reaches them stops once its window is full of data they never acknowledge; a node
     * restarted after a crash is up again in about 4.5 s, so a shorter lease is over before its new readers match.
     */
    public static final String DEFAULT_NODE_LEASE = "4s";

    public DdsTransportSettings {
        Objects.requireNonNull(participant, "participant");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        Objects.requireNonNull(redeliveryDelay, "redeliveryDelay");
        Objects.requireNonNull(receiptsTopic, "receiptsTopic");
        Objects.requireNonNull(handshakeRecovery, "handshakeRecovery");
        Objects.requireNonNull(startAnnouncements, "startAnnouncements");
        if (participant.writeBatch() == null) {
            participant = participant.toBuilder().writeBatch(DEFAULT_WRITE_BATCH).build();
        }
        if (writeTimeout.isNegative() || writeTimeout.isZero()) {
            throw invalid("writeTimeout", "writeTimeout must be positive, was " + writeTimeout);
        }
        if (maxBatch < 1) {
            throw invalid("maxBatch", "maxBatch must be at least 1, was " + maxBatch);
        }
        if (redeliveryDelay.isNegative() || redeliveryDelay.isZero()) {
            throw invalid("redeliveryDelay", "redeliveryDelay must be positive, was " + redeliveryDelay);
        }
        if (receiptsTopic.isBlank()) {
            throw invalid("receiptsTopic", "receiptsTopic must not be blank");
        }
        if (bestEffortBacklog < 1) {
            throw invalid("bestEffortBacklog", "bestEffortBacklog must be at least 1, was " + bestEffortBacklog);
        }
    }

    /**
     * Default participant, batch size, redelivery delay, receipts topic and handshake recovery; the given timeout
     * and backlog.
     */
    public static Builder builder(Duration writeTimeout, int bestEffortBacklog) {
        return new Builder(ParticipantSettings.defaults(), writeTimeout, DEFAULT_MAX_BATCH, DEFAULT_REDELIVERY_DELAY,
                DEFAULT_RECEIPTS_TOPIC, bestEffortBacklog, HandshakeRecovery.DEFAULT, StartAnnouncements.DEFAULT);
    }

    /** A builder holding these settings, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder(this.participant, this.writeTimeout, this.maxBatch, this.redeliveryDelay,
                this.receiptsTopic, this.bestEffortBacklog, this.handshakeRecovery, this.startAnnouncements);
    }

    /**
     * Announcements the transport adds to the periodic ones ({@link ParticipantSettings.Discovery#announceInterval()})
     * in the first moments of each participant it creates: at {@link #open} and at each recreation. A peer that could
     * not hear the participant's first announcement (its link still down while the node started) finds it as soon as
     * the link is back within these moments, instead of at the next periodic one, 8 s apart by default. Each costs what
     * a periodic announcement costs on the wire: one datagram to the multicast group and one to each participant index
     * of each peer.
     *
     * @param count how many, one every {@code interval} from the participant's creation; 0 for none
     * @param interval the time between two
     */
    public record StartAnnouncements(int count, Duration interval) {

        public static final StartAnnouncements NONE = new StartAnnouncements(0, Duration.ofSeconds(1));

        /**
         * Eight, 250 ms apart: a node that starts while its link is down and is back within 2 s is found within
         * 250 ms of the link's return, not at the next periodic announcement. Each costs one periodic
         * announcement's bytes (docs/results.md, issue 30's section); they end as soon as the node matches another one, so a node
         * that starts among its peers sends one or two of them.
         */
        public static final StartAnnouncements DEFAULT = new StartAnnouncements(8, Duration.ofMillis(250));

        /** The most: one a second for two minutes, or many more than a start needs. */
        public static final int MAX_COUNT = 120;

        public StartAnnouncements {
            Objects.requireNonNull(interval, "interval");
            if (count < 0 || count > MAX_COUNT) {
                throw invalid("startAnnouncements.count", "startAnnouncements.count must be 0.." + MAX_COUNT
                        + ", was " + count);
            }
            if (interval.compareTo(Duration.ofMillis(10)) < 0) {
                throw invalid("startAnnouncements.interval", "startAnnouncements.interval must be at least 10 ms, "
                        + "was " + interval);
            }
        }
    }

    /**
     * How the transport recovers, under DDS Security, from an authentication handshake that failed with a remote
     * participant that still announces itself. Cyclone 0.10 gives up on a handshake after 100 s (a lossy link during
     * discovery is enough) and never starts it again, so the two stay unmatched; a participant created anew
     * handshakes with every remote participant again. The transport recreates its participant once such a failure
     * has lasted {@code delay}, with the same topics, writers and readers.
     *
     * @param enabled false to leave such pairs unmatched, as Cyclone does (counted and reported in health only)
     * @param delay how long a failed handshake with a remote participant still there lasts before the participant is
     *        recreated: time for the remote one to leave, or to recreate its own first; doubled for each further
     *        recreation the same remote participant causes (one whose certificate this side can never verify fails
     *        again 100 s after each)
     * @param maxDelay the longest that doubled wait gets
     * @param minInterval the least time between two recreations, whatever caused them
     */
    public record HandshakeRecovery(boolean enabled, Duration delay, Duration maxDelay, Duration minInterval) {

        public static final HandshakeRecovery DEFAULT = new HandshakeRecovery(true, Duration.ofSeconds(10),
                Duration.ofMinutes(10), Duration.ofMinutes(1));

        public HandshakeRecovery {
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(maxDelay, "maxDelay");
            Objects.requireNonNull(minInterval, "minInterval");
            if (delay.isNegative() || delay.isZero() || maxDelay.compareTo(delay) < 0) {
                throw invalid("handshakeRecovery.delay", "handshakeRecovery.delay must be positive and at most "
                        + "handshakeRecovery.maxDelay, were " + delay + " and " + maxDelay);
            }
            if (minInterval.isNegative()) {
                throw invalid("handshakeRecovery.minInterval", "handshakeRecovery.minInterval must not be "
                        + "negative, was " + minInterval);
            }
        }
    }

    private static InvalidSettingsException invalid(String setting, String message) {
        return InvalidSettingsException.of(setting, message);
    }

    /** Collects settings by name; {@link #build()} checks them. */
    public static final class Builder {

        private ParticipantSettings participant;
        private Duration writeTimeout;
        private int maxBatch;
        private Duration redeliveryDelay;
        private String receiptsTopic;
        private int bestEffortBacklog;
        private HandshakeRecovery handshakeRecovery;
        private StartAnnouncements startAnnouncements;

        private Builder(ParticipantSettings participant, Duration writeTimeout, int maxBatch,
                Duration redeliveryDelay, String receiptsTopic, int bestEffortBacklog,
                HandshakeRecovery handshakeRecovery, StartAnnouncements startAnnouncements) {
            this.participant = participant;
            this.writeTimeout = writeTimeout;
            this.maxBatch = maxBatch;
            this.redeliveryDelay = redeliveryDelay;
            this.receiptsTopic = receiptsTopic;
            this.bestEffortBacklog = bestEffortBacklog;
            this.handshakeRecovery = handshakeRecovery;
            this.startAnnouncements = startAnnouncements;
        }

        public Builder participant(ParticipantSettings value) {
            this.participant = value;
            return this;
        }

        public Builder writeTimeout(Duration value) {
            this.writeTimeout = value;
            return this;
        }

        public Builder maxBatch(int value) {
            this.maxBatch = value;
            return this;
        }

        public Builder redeliveryDelay(Duration value) {
            this.redeliveryDelay = value;
            return this;
        }

        public Builder receiptsTopic(String value) {
            this.receiptsTopic = value;
            return this;
        }

        public Builder bestEffortBacklog(int value) {
            this.bestEffortBacklog = value;
            return this;
        }

        public Builder handshakeRecovery(HandshakeRecovery value) {
            this.handshakeRecovery = value;
            return this;
        }

        public Builder startAnnouncements(StartAnnouncements value) {
            this.startAnnouncements = value;
            return this;
        }

        /** @throws InvalidSettingsException naming the first setting out of range */
        public DdsTransportSettings build() {
            return new DdsTransportSettings(this.participant, this.writeTimeout, this.maxBatch, this.redeliveryDelay,
                    this.receiptsTopic, this.bestEffortBacklog, this.handshakeRecovery, this.startAnnouncements);
        }
    }
}

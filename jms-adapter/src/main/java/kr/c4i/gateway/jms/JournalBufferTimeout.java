package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.Objects;

import org.apache.activemq.artemis.core.config.Configuration;

/**
 * How long the embedded broker's journal gathers writes before it flushes them to disk in one sync. Artemis waits
 * 3.3 ms by default (NIO), so that many commits share one sync; every durable commit waits that long at most, once per
 * broker a message crosses. A relay that a message crosses several brokers through trades a few more syncs under load
 * for a few milliseconds less at each.
 */
public record JournalBufferTimeout(Duration timeout) implements EmbeddedBrokerCustomizer {

    /**
     * What the WAN gateway's brokers use: well under one synced write of a server disk (1-2 ms), so a commit waits
     * little for others to share its sync; measured in docs/benchmarks.md ("After the throughput work").
     */
    public static final JournalBufferTimeout RELAY = new JournalBufferTimeout(Duration.ofNanos(500_000));

    public JournalBufferTimeout {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero() || timeout.toNanos() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("A journal buffer timeout must be positive and at most "
                    + Duration.ofNanos(Integer.MAX_VALUE).toMillis() + " ms, was " + timeout);
        }
    }

    @Override
    public void customize(Configuration configuration) {
        int nanos = (int) timeout.toNanos();
        configuration.setJournalBufferTimeout_NIO(nanos);
        configuration.setJournalBufferTimeout_AIO(nanos);
    }
}

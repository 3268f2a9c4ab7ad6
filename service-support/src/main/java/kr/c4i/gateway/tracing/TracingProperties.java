package kr.c4i.gateway.tracing;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Spans of the messages a service moves, exported over OTLP (docs/operator-guide.md, "Traces"). The collector is
 * Spring Boot's {@code management.opentelemetry.tracing.export.otlp.endpoint}; the share of messages traced, Boot's
 * {@code management.tracing.sampling.probability} (every message unless set).
 *
 * @param enabled whether spans are made and exported; the one switch: off, no tracer provider, span processor,
 *        exporter, thread or queue is created
 * @param queue the spans' queue on disk, between the span processor and the collector
 */
@ConfigurationProperties("gateway.tracing")
public record TracingProperties(@DefaultValue("false") boolean enabled, @DefaultValue Queue queue) {

    /**
     * @param directory where the queued spans are kept (created if missing), across restarts
     * @param maxSize the most the queued spans take on disk; when full, the oldest go first
     */
    public record Queue(@DefaultValue("data/traces") Path directory, @DefaultValue("64MB") DataSize maxSize) {

        /** @throws IllegalArgumentException naming the property whose value is out of range */
        public Queue {
            if (maxSize.toBytes() < 1024 * 1024 || maxSize.toBytes() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("gateway.tracing.queue.max-size must be from 1MB to 2047MB, was "
                        + maxSize);
            }
        }
    }
}

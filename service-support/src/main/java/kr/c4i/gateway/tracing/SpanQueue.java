package kr.c4i.gateway.tracing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.contrib.disk.buffering.exporters.SpanToDiskExporter;
import io.opentelemetry.contrib.disk.buffering.storage.impl.FileSpanStorage;
import io.opentelemetry.contrib.disk.buffering.storage.impl.FileStorageConfiguration;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * The spans on their way to the collector, on disk: the span processor writes its batches here ({@link #toDisk}),
 * and a thread of its own exports them to the collector oldest first, each batch deleted once the collector has it
 * and kept (and tried again) while the export fails, across restarts too. Bounded in bytes: when full, the oldest
 * file of spans is deleted to make room. An unreachable collector is one WARN line, its return one INFO line.
 *
 * <p>Metrics: the bytes queued and their bound ({@code gateway.tracing.queue.bytes}, {@code .bound}: queued bytes at
 * the bound mean the oldest spans are being deleted), spans the collector took ({@code gateway.tracing.spans.exported})
 * and exports that failed ({@code gateway.tracing.export.failures}).
 */
public final class SpanQueue implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SpanQueue.class);

    // A file takes spans for WRITE_WINDOW and is read from READ_AFTER on (the storage's rule: it must be closed to
    // writes first); short, so spans reach the collector a few seconds after their batch.
    private static final Duration WRITE_WINDOW = Duration.ofSeconds(2);
    private static final Duration READ_AFTER = Duration.ofSeconds(3);
    // The bound is in bytes: age alone never drops spans.
    private static final Duration KEPT_AT_MOST = Duration.ofDays(3650);
    private static final int FILES_AT_LEAST = 8;
    private static final int LARGEST_FILE = 1024 * 1024;

    private static final Duration IDLE = Duration.ofSeconds(1);
    private static final Duration RETRY = Duration.ofSeconds(5);
    private static final Duration EXPORT_TIMEOUT = Duration.ofMinutes(1);

    private final Path directory;
    private final FileSpanStorage storage;
    private final SpanToDiskExporter toDisk;
    private final SpanExporter collector;
    private final String endpoint;
    private final Counter exported;
    private final Counter failures;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private @Nullable Thread thread;
    private boolean unreachable;

    /**
     * @param maxBytes the most the queue's files hold together
     * @param collector the collector's exporters (Boot's OTLP exporter)
     * @param endpoint the collector's address, for the log
     * @param registry where the queue's metrics go
     */
    public SpanQueue(Path directory, long maxBytes, List<SpanExporter> collector, String endpoint,
            MeterRegistry registry) throws IOException {
        this.directory = Files.createDirectories(directory);
        int maxFolder = Math.toIntExact(Math.min(Integer.MAX_VALUE, maxBytes));
        FileStorageConfiguration configuration = FileStorageConfiguration.builder()
                .setMaxFolderSize(maxFolder)
                .setMaxFileSize(Math.max(1, Math.min(LARGEST_FILE, maxFolder / FILES_AT_LEAST)))
                .setMaxFileAgeForWriteMillis(WRITE_WINDOW.toMillis())
                .setMinFileAgeForReadMillis(READ_AFTER.toMillis())
                .setMaxFileAgeForReadMillis(KEPT_AT_MOST.toMillis())
                .build();
        this.storage = FileSpanStorage.create(this.directory.toFile(), configuration);
        this.toDisk = SpanToDiskExporter.builder(storage).build();
        this.collector = SpanExporter.composite(collector);
        this.endpoint = endpoint;
        Gauge.builder(MetricNames.TRACING_QUEUE_BYTES, this, SpanQueue::queuedBytes).baseUnit("bytes")
                .description("Spans on disk waiting for the trace collector").register(registry);
        Gauge.builder(MetricNames.TRACING_QUEUE_BOUND, () -> maxFolder).baseUnit("bytes")
                .description("The most the queued spans take on disk (gateway.tracing.queue.max-size); at it, the "
                        + "oldest are deleted")
                .register(registry);
        this.exported = Counter.builder(MetricNames.TRACING_SPANS_EXPORTED)
                .description("Spans the trace collector took").register(registry);
        this.failures = Counter.builder(MetricNames.TRACING_EXPORT_FAILURES)
                .description("Exports of queued spans to the trace collector that failed (tried again)")
                .register(registry);
    }

    /** The bytes of the queue's files; NaN while they cannot be listed. */
    private double queuedBytes() {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> {
                try {
                    return Files.size(file);
                }
                catch (IOException ex) {
                    // Deleted as it was listed: exported or made room for newer spans.
                    return 0;
                }
            }).sum();
        }
        catch (IOException | UncheckedIOException ex) {
            return Double.NaN;
        }
    }

    /** What the span processor exports to. */
    public SpanExporter toDisk() {
        return toDisk;
    }

    public Path directory() {
        return directory;
    }

    /** Starts exporting what the queue holds. */
    public synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon().name("trace-queue-export").start(this::export);
        }
    }

    private void export() {
        Iterator<Collection<SpanData>> stored = storage.iterator();
        Collection<SpanData> batch = null;
        while (stopping.getCount() > 0) {
            if (batch == null) {
                if (!stored.hasNext()) {
                    pause(IDLE);
                    continue;
                }
                batch = stored.next();
                if (batch == null) {
                    continue;
                }
            }
            CompletableResultCode result = collector.export(batch).join(EXPORT_TIMEOUT.toMillis(),
                    TimeUnit.MILLISECONDS);
            if (result.isSuccess()) {
                exported.increment(batch.size());
                batch = null;
                // Deletes the batch exported (and reads the next): the storage deletes a batch when it moves on.
                stored.hasNext();
                if (unreachable) {
                    unreachable = false;
                    log.info("The trace collector at {} takes spans again; sending those queued in {}", endpoint,
                            directory);
                }
            }
            else {
                failures.increment();
                if (!unreachable) {
                    unreachable = true;
                    Throwable failure = result.getFailureThrowable();
                    log.warn("The trace collector at {} cannot be reached{}; spans are queued in {} and sent once it "
                            + "can", endpoint, failure == null ? "" : " (" + failure + ")", directory);
                }
                pause(RETRY);
            }
        }
    }

    private void pause(Duration duration) {
        try {
            stopping.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            stopping.countDown();
        }
    }

    /** Stops exporting; what is not exported yet stays on disk for the next start. */
    @Override
    public void close() throws IOException {
        stopping.countDown();
        Thread running;
        synchronized (this) {
            running = thread;
        }
        if (running != null) {
            try {
                running.join(EXPORT_TIMEOUT.plusSeconds(5));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        storage.close();
    }
}

package kr.c4i.gateway.wan.policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.schedule.NanoClock;
import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * The relay policy in force, read from the operator's file and read again whenever its content changes, checked
 * every {@code interval} (content, not modification time, so an editor's rename or a configuration map's symlink
 * swap is seen, and a touch alone does nothing). A changed file that reads cleanly replaces the policy at once
 * (atomically: each decision sees one whole policy); one that does not keeps the previous policy, logs one error
 * naming each problem's line and counts {@code gateway.wan.policy.reloads{outcome=failed}} once per broken
 * version. At start a broken or missing file is fatal, so a gateway never starts on a policy it could not read.
 * Without a file the policy allows everything.
 */
public final class PolicyFile implements Supplier<RelayPolicy>, ExpiryRule, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PolicyFile.class);
    private static final byte[] MISSING = new byte[0];

    private final @Nullable Path file;
    private final KmtfCatalogue catalogue;
    private final NanoClock nanoClock;
    private final InstantSource clock;
    private final Counter applied;
    private final Counter failed;
    private volatile RelayPolicy current;
    private byte[] lastSeen;
    private @Nullable ScheduledExecutorService watcher;

    /**
     * Reads the file now.
     *
     * @param file the policy file, or {@code null} for a policy that allows everything
     * @throws PolicyException if the file does not read as a policy
     * @throws IllegalStateException if the file cannot be read
     */
    public PolicyFile(@Nullable Path file, KmtfCatalogue catalogue, MeterRegistry registry, NanoClock nanoClock,
            InstantSource clock) {
        this.file = file;
        this.catalogue = catalogue;
        this.nanoClock = nanoClock;
        this.clock = clock;
        this.applied = Counter.builder(MetricNames.WAN_POLICY_RELOADS).tag(MetricNames.TAG_OUTCOME, "applied")
            .description("Relay policy file versions read and put in force").register(registry);
        this.failed = Counter.builder(MetricNames.WAN_POLICY_RELOADS).tag(MetricNames.TAG_OUTCOME, "failed")
            .description("Relay policy file versions that could not be read; the previous policy stayed")
            .register(registry);
        if (file == null) {
            this.lastSeen = MISSING;
            this.current = RelayPolicy.allowAll(catalogue);
            return;
        }
        this.lastSeen = content(file);
        if (this.lastSeen == MISSING) {
            throw new IllegalStateException("Unable to read the relay policy file " + file.toAbsolutePath()
                    + "; set gateway.wan.policy.file to a readable file, or leave it unset to relay every type");
        }
        this.current = parse(file, this.lastSeen);
        log.info("Relay policy read from {}", file);
    }

    /** Checks the file every {@code interval} from now on, on a daemon thread of its own. */
    public synchronized void start(Duration interval) {
        if (this.file == null || this.watcher != null) {
            return;
        }
        this.watcher = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("wan-policy-file").factory());
        this.watcher.scheduleWithFixedDelay(this::check, interval.toNanos(), interval.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /**
     * Reads the file again if its content changed since it was last read.
     *
     * @return whether a new policy is now in force
     */
    public synchronized boolean check() {
        Path path = this.file;
        if (path == null) {
            return false;
        }
        byte[] content = content(path);
        if (Arrays.equals(content, this.lastSeen)) {
            return false;
        }
        this.lastSeen = content;
        if (content == MISSING) {
            this.failed.increment();
            log.error("Relay policy file {} cannot be read; the previous policy stays in force", path);
            return false;
        }
        try {
            this.current = parse(path, content);
        }
        catch (PolicyException ex) {
            this.failed.increment();
            log.error("{}; the previous policy stays in force", ex.getMessage());
            return false;
        }
        this.applied.increment();
        log.info("Relay policy re-read from {} and in force", path);
        return true;
    }

    /** The policy in force. */
    @Override
    public RelayPolicy get() {
        return this.current;
    }

    @Override
    public boolean expired(Waiting copy, Instant now) {
        return this.current.expired(copy, now);
    }

    @Override
    public synchronized void close() {
        if (this.watcher != null) {
            this.watcher.shutdownNow();
            this.watcher = null;
        }
    }

    private RelayPolicy parse(Path path, byte[] content) {
        return RelayPolicy.read(new String(content, StandardCharsets.UTF_8), path.toString(), this.catalogue,
                this.nanoClock, this.clock);
    }

    private static byte[] content(Path path) {
        try {
            return Files.readAllBytes(path);
        }
        catch (IOException ex) {
            log.debug("Cannot read {}", path, ex);
            return MISSING;
        }
    }
}

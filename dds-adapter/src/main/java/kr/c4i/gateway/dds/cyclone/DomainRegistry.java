package kr.c4i.gateway.dds.cyclone;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.cyclone.internal.Ddsc;

/**
 * Cyclone allows one explicitly created domain per id and process, so participants of the same domain share it:
 * the first creates it with its configuration, later ones must ask for the same configuration, and the last to
 * leave deletes it. A secured domain's {@link HandshakeWatch} lives as long as the domain.
 */
final class DomainRegistry {

    private static final Map<Key, Entry> DOMAINS = new HashMap<>();

    private DomainRegistry() {
    }

    /**
     * Joins the domain, creating it first if this process has not.
     *
     * @param secured whether {@code config} turns DDS Security on, so remote participants it refuses are watched
     * @return the domain's handshake watch, or null if it is not secured
     * @throws IllegalStateException if the domain exists in this process with a different configuration, or Cyclone
     *         refuses the configuration (with the reason it logged)
     */
    static synchronized @Nullable HandshakeWatch acquire(Ddsc ddsc, int domainId, String config, boolean secured) {
        Key key = new Key(ddsc, domainId);
        Entry entry = DOMAINS.get(key);
        if (entry != null) {
            if (!entry.config.equals(config)) {
                throw new IllegalStateException("Unable to join DDS domain " + domainId + " with configuration ["
                        + config + "]: this process already joined it with [" + entry.config
                        + "]; Cyclone allows one configuration per domain and process");
            }
            entry.references++;
            return entry.watch;
        }
        CycloneLog.install(ddsc);
        // Watched before it exists: discovery starts while the domain is created.
        HandshakeWatch watch = secured ? new HandshakeWatch() : null;
        if (watch != null) {
            CycloneLog.watch(domainId, watch);
        }
        int handle;
        try (Arena arena = Arena.ofConfined(); CycloneLog.Capture capture = CycloneLog.capture()) {
            handle = ddsc.createDomain(domainId, arena.allocateFrom(config));
            if (handle < 0) {
                String reason = capture.text();
                throw new IllegalStateException("Unable to create DDS domain " + domainId + " with configuration ["
                        + config + "]: " + (reason.isEmpty() ? "Cyclone logged no reason (" + ddsc.strretcode(handle)
                        + "); a domain created elsewhere in this process?" : reason));
            }
        }
        catch (RuntimeException ex) {
            if (watch != null) {
                CycloneLog.unwatch(domainId);
            }
            throw ex;
        }
        DOMAINS.put(key, new Entry(handle, config, watch));
        return watch;
    }

    static synchronized void release(Ddsc ddsc, int domainId) {
        Key key = new Key(ddsc, domainId);
        Entry entry = DOMAINS.get(key);
        if (entry != null && --entry.references == 0) {
            DOMAINS.remove(key);
            ddsc.delete(entry.handle);
            if (entry.watch != null) {
                CycloneLog.unwatch(domainId);
            }
        }
    }

    private record Key(Ddsc ddsc, int domainId) {
    }

    private static final class Entry {

        final int handle;
        final String config;
        final @Nullable HandshakeWatch watch;
        int references = 1;

        Entry(int handle, String config, @Nullable HandshakeWatch watch) {
            this.handle = handle;
            this.config = config;
            this.watch = watch;
        }
    }
}

package kr.c4i.gateway.dds.cyclone;

import java.lang.foreign.Arena;
import java.util.HashMap;
import java.util.Map;

import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;

/**
 * Cyclone allows one explicitly created domain per id and process, so participants of the same domain share it:
 * the first creates it with its configuration, later ones must ask for the same configuration, and the last to
 * leave deletes it.
 */
final class DomainRegistry {

    private static final Map<Key, Entry> DOMAINS = new HashMap<>();

    private DomainRegistry() {
    }

    /**
     * @throws IllegalStateException if the domain exists in this process with a different configuration
     */
    static synchronized void acquire(Ddsc ddsc, int domainId, String config) {
        Key key = new Key(ddsc, domainId);
        Entry entry = DOMAINS.get(key);
        if (entry != null) {
            if (!entry.config.equals(config)) {
                throw new IllegalStateException("Unable to join DDS domain " + domainId + " with configuration ["
                        + config + "]: this process already joined it with [" + entry.config
                        + "]; Cyclone allows one configuration per domain and process");
            }
            entry.references++;
            return;
        }
        int handle;
        try (Arena arena = Arena.ofConfined()) {
            handle = ddsc.check(ddsc.createDomain(domainId, arena.allocateFrom(config)), "dds_create_domain");
        }
        catch (DdsException ex) {
            throw new IllegalStateException("Unable to create DDS domain " + domainId + " with configuration ["
                    + config + "]; Cyclone writes the reason to stderr (a misspelt element, an unknown interface, "
                    + "a domain created elsewhere in this process)", ex);
        }
        DOMAINS.put(key, new Entry(handle, config));
    }

    static synchronized void release(Ddsc ddsc, int domainId) {
        Key key = new Key(ddsc, domainId);
        Entry entry = DOMAINS.get(key);
        if (entry != null && --entry.references == 0) {
            DOMAINS.remove(key);
            ddsc.delete(entry.handle);
        }
    }

    private record Key(Ddsc ddsc, int domainId) {
    }

    private static final class Entry {

        final int handle;
        final String config;
        int references = 1;

        Entry(int handle, String config) {
            this.handle = handle;
            this.config = config;
        }
    }
}

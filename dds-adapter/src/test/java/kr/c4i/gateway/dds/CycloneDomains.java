package kr.c4i.gateway.dds;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Two calls of Cyclone's that the binding does not need, for tests to look at or act on a domain of this process:
 * {@code dds_lookup_participant} and {@code dds_domain_set_deafmute} (a call for tests).
 */
public final class CycloneDomains {

    private static final int MAX_PARTICIPANTS = 64;
    private static final long DDS_INFINITY = Long.MAX_VALUE;
    private static final MethodHandle LOOKUP_PARTICIPANT;
    private static final MethodHandle SET_DEAFMUTE;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup ddsc = SymbolLookup.libraryLookup("libddsc.so.0debian", Arena.global());
        // dds_return_t dds_lookup_participant(dds_domainid_t, dds_entity_t *participants, size_t size)
        LOOKUP_PARTICIPANT = linker.downcallHandle(ddsc.findOrThrow("dds_lookup_participant"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
        // dds_return_t dds_domain_set_deafmute(dds_entity_t, bool deaf, bool mute, dds_duration_t reset_after)
        SET_DEAFMUTE = linker.downcallHandle(ddsc.findOrThrow("dds_domain_set_deafmute"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_BOOLEAN, JAVA_BOOLEAN, JAVA_LONG));
    }

    private CycloneDomains() {
    }

    /** How many participants this process has in the domain. */
    public static int participants(int domainId) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            return lookup(domainId, arena.allocate(JAVA_INT, MAX_PARTICIPANTS));
        }
    }

    /** Makes the domain deaf to everything it receives (it still sends), or hearing again. */
    public static void deaf(int domainId, boolean deaf) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment participants = arena.allocate(JAVA_INT, MAX_PARTICIPANTS);
            if (lookup(domainId, participants) < 1) {
                throw new IllegalStateException("No participant of this process in domain " + domainId);
            }
            int result = (int) SET_DEAFMUTE.invokeExact(participants.get(JAVA_INT, 0), deaf, false, DDS_INFINITY);
            if (result < 0) {
                throw new IllegalStateException("dds_domain_set_deafmute returned " + result);
            }
        }
    }

    private static int lookup(int domainId, MemorySegment participants) throws Throwable {
        int found = (int) LOOKUP_PARTICIPANT.invokeExact(domainId, participants, (long) MAX_PARTICIPANTS);
        if (found < 0) {
            throw new IllegalStateException("dds_lookup_participant returned " + found);
        }
        return found;
    }
}

package kr.c4i.gateway.dds.cyclone.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DdsLibraryUnavailableException;

/**
 * The downcall handles of one loaded libddsc, one typed method per {@link DdscSymbol}, and the single check that
 * turns a negative {@code dds_return_t} into a {@link DdsException}. Loaded once per library name for the life of
 * the JVM (a C library cannot be unloaded safely while its threads run).
 */
public final class Ddsc {

    /** System property naming the library file or path; tried first. */
    public static final String LIBRARY_PROPERTY = "kr.c4i.gateway.dds.cyclone.library";
    /** Debian's soname for Cyclone DDS 0.10 ({@code libddsc0debian}). */
    public static final String DEBIAN_LIBRARY = "libddsc.so.0debian";
    /** Upstream's soname. */
    public static final String UPSTREAM_LIBRARY = "libddsc.so.0";

    private static final Logger log = LoggerFactory.getLogger(Ddsc.class);
    private static final Map<String, Ddsc> LOADED = new ConcurrentHashMap<>();

    private final String library;
    private final MethodHandle createDomain;
    private final MethodHandle createParticipant;
    private final MethodHandle createTopic;
    private final MethodHandle createWriter;
    private final MethodHandle createReader;
    private final MethodHandle createWaitset;
    private final MethodHandle createReadcondition;
    private final MethodHandle delete;
    private final MethodHandle getDomainid;
    private final MethodHandle getGuid;
    private final MethodHandle write;
    private final MethodHandle writeFlush;
    private final MethodHandle take;
    private final MethodHandle returnLoan;
    private final MethodHandle waitsetAttach;
    private final MethodHandle waitsetWait;
    private final MethodHandle waitsetSetTrigger;
    private final MethodHandle getPublicationMatchedStatus;
    private final MethodHandle getSubscriptionMatchedStatus;
    private final MethodHandle getSampleLostStatus;
    private final MethodHandle getSampleRejectedStatus;
    private final MethodHandle strretcode;
    private final MethodHandle createQos;
    private final MethodHandle deleteQos;
    private final MethodHandle qsetReliability;
    private final MethodHandle qsetHistory;
    private final MethodHandle qsetDurability;
    private final MethodHandle qsetDurabilityService;
    private final MethodHandle qsetDeadline;
    private final MethodHandle qsetLifespan;
    private final MethodHandle qsetPartition;
    private final MethodHandle qsetTransportPriority;
    private final MethodHandle qsetResourceLimits;
    private final MethodHandle qsetUserdata;
    private final MethodHandle setQos;
    private final MethodHandle qgetPartition;
    private final MethodHandle getMatchedPublicationData;
    private final MethodHandle builtintopicFreeEndpoint;
    private final MethodHandle free;
    private final MethodHandle setLogSink;
    private final MethodHandle setTraceSink;

    private Ddsc(String library, SymbolLookup lookup) {
        this.library = library;
        Map<DdscSymbol, MethodHandle> h = bind(lookup);
        this.createDomain = h.get(DdscSymbol.CREATE_DOMAIN);
        this.createParticipant = h.get(DdscSymbol.CREATE_PARTICIPANT);
        this.createTopic = h.get(DdscSymbol.CREATE_TOPIC);
        this.createWriter = h.get(DdscSymbol.CREATE_WRITER);
        this.createReader = h.get(DdscSymbol.CREATE_READER);
        this.createWaitset = h.get(DdscSymbol.CREATE_WAITSET);
        this.createReadcondition = h.get(DdscSymbol.CREATE_READCONDITION);
        this.delete = h.get(DdscSymbol.DELETE);
        this.getDomainid = h.get(DdscSymbol.GET_DOMAINID);
        this.getGuid = h.get(DdscSymbol.GET_GUID);
        this.write = h.get(DdscSymbol.WRITE);
        this.writeFlush = h.get(DdscSymbol.WRITE_FLUSH);
        this.take = h.get(DdscSymbol.TAKE);
        this.returnLoan = h.get(DdscSymbol.RETURN_LOAN);
        this.waitsetAttach = h.get(DdscSymbol.WAITSET_ATTACH);
        this.waitsetWait = h.get(DdscSymbol.WAITSET_WAIT);
        this.waitsetSetTrigger = h.get(DdscSymbol.WAITSET_SET_TRIGGER);
        this.getPublicationMatchedStatus = h.get(DdscSymbol.GET_PUBLICATION_MATCHED_STATUS);
        this.getSubscriptionMatchedStatus = h.get(DdscSymbol.GET_SUBSCRIPTION_MATCHED_STATUS);
        this.getSampleLostStatus = h.get(DdscSymbol.GET_SAMPLE_LOST_STATUS);
        this.getSampleRejectedStatus = h.get(DdscSymbol.GET_SAMPLE_REJECTED_STATUS);
        this.strretcode = h.get(DdscSymbol.STRRETCODE);
        this.createQos = h.get(DdscSymbol.CREATE_QOS);
        this.deleteQos = h.get(DdscSymbol.DELETE_QOS);
        this.qsetReliability = h.get(DdscSymbol.QSET_RELIABILITY);
        this.qsetHistory = h.get(DdscSymbol.QSET_HISTORY);
        this.qsetDurability = h.get(DdscSymbol.QSET_DURABILITY);
        this.qsetDurabilityService = h.get(DdscSymbol.QSET_DURABILITY_SERVICE);
        this.qsetDeadline = h.get(DdscSymbol.QSET_DEADLINE);
        this.qsetLifespan = h.get(DdscSymbol.QSET_LIFESPAN);
        this.qsetPartition = h.get(DdscSymbol.QSET_PARTITION);
        this.qsetTransportPriority = h.get(DdscSymbol.QSET_TRANSPORT_PRIORITY);
        this.qsetResourceLimits = h.get(DdscSymbol.QSET_RESOURCE_LIMITS);
        this.qsetUserdata = h.get(DdscSymbol.QSET_USERDATA);
        this.setQos = h.get(DdscSymbol.SET_QOS);
        this.qgetPartition = h.get(DdscSymbol.QGET_PARTITION);
        this.getMatchedPublicationData = h.get(DdscSymbol.GET_MATCHED_PUBLICATION_DATA);
        this.builtintopicFreeEndpoint = h.get(DdscSymbol.BUILTINTOPIC_FREE_ENDPOINT);
        this.free = h.get(DdscSymbol.FREE);
        this.setLogSink = h.get(DdscSymbol.SET_LOG_SINK);
        this.setTraceSink = h.get(DdscSymbol.SET_TRACE_SINK);
    }

    /**
     * Loads libddsc, trying in order: {@code configured} (a file name or path, e.g. from the settings), the
     * {@value #LIBRARY_PROPERTY} system property, {@value #DEBIAN_LIBRARY}, {@value #UPSTREAM_LIBRARY}. Failures of
     * earlier candidates are kept as suppressed exceptions of the final one.
     *
     * @throws IllegalStateException if no candidate loads, or one loads but lacks a symbol this binding needs
     */
    public static Ddsc load(String configured) {
        List<String> candidates = new ArrayList<>();
        if (configured != null) {
            candidates.add(configured);
        }
        Optional.ofNullable(System.getProperty(LIBRARY_PROPERTY)).filter(s -> !s.isBlank()).map(String::strip)
                .ifPresent(candidates::add);
        candidates.add(DEBIAN_LIBRARY);
        candidates.add(UPSTREAM_LIBRARY);
        return loadFirst(candidates.stream().distinct().toList());
    }

    /** Loads the first candidate that works; package-private so tests can give a chain that fails. */
    static Ddsc loadFirst(List<String> candidates) {
        List<Throwable> failures = new ArrayList<>();
        for (String candidate : candidates) {
            Ddsc loaded = LOADED.get(candidate);
            if (loaded != null) {
                return loaded;
            }
            try {
                // Global arena: the library stays mapped for the JVM's life.
                loaded = new Ddsc(candidate, SymbolLookup.libraryLookup(candidate, Arena.global()));
            }
            catch (IllegalArgumentException | IllegalCallerException | IllegalStateException ex) {
                failures.add(new IllegalStateException("Unable to load " + candidate + ": " + ex.getMessage(), ex));
                continue;
            }
            if (!failures.isEmpty()) {
                log.warn("Loaded Cyclone DDS from {} after {} failed: {}", candidate, failures.size(),
                        failures.stream().map(Throwable::getMessage).toList());
            }
            Ddsc previous = LOADED.putIfAbsent(candidate, loaded);
            return previous != null ? previous : loaded;
        }
        IllegalStateException ex = new DdsLibraryUnavailableException("Unable to load Cyclone DDS: tried " + candidates
                + ". Install the Debian package " + DdsLibraryUnavailableException.DEBIAN_PACKAGE + ", or set -D"
                + LIBRARY_PROPERTY
                + "=/path/to/libddsc.so (and run with --enable-native-access=ALL-UNNAMED)");
        failures.forEach(ex::addSuppressed);
        throw ex;
    }

    private static Map<DdscSymbol, MethodHandle> bind(SymbolLookup lookup) {
        Linker linker = Linker.nativeLinker();
        Map<DdscSymbol, MethodHandle> handles = new EnumMap<>(DdscSymbol.class);
        List<String> missing = new ArrayList<>();
        for (DdscSymbol symbol : DdscSymbol.values()) {
            lookup.find(symbol.symbol()).ifPresentOrElse(
                    address -> handles.put(symbol, linker.downcallHandle(address, symbol.descriptor())),
                    () -> missing.add(symbol.symbol()));
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("it is not Cyclone DDS 0.10: it lacks " + missing);
        }
        return handles;
    }

    /** The library name or path this was loaded from. */
    public String library() {
        return this.library;
    }

    /**
     * The one check every {@code dds_*} result passes: returns a non-negative result (a handle or a count) and
     * throws the {@link DdsException} subclass for a negative one, with {@code dds_strretcode}'s text.
     */
    public int check(int result, String operation) {
        if (result >= 0) {
            return result;
        }
        throw DdsException.of(-result, operation, strretcode(result));
    }

    public String strretcode(int code) {
        try {
            MemorySegment text = (MemorySegment) this.strretcode.invokeExact(code);
            return text.equals(MemorySegment.NULL) ? "unknown return code" : text.reinterpret(256).getString(0);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createDomain(int domainId, MemorySegment config) {
        try {
            return (int) this.createDomain.invokeExact(domainId, config);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createParticipant(int domainId, MemorySegment qos) {
        try {
            return (int) this.createParticipant.invokeExact(domainId, qos, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createTopic(int participant, MemorySegment descriptor, MemorySegment name, MemorySegment qos) {
        try {
            return (int) this.createTopic.invokeExact(participant, descriptor, name, qos, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createWriter(int participant, int topic, MemorySegment qos) {
        try {
            return (int) this.createWriter.invokeExact(participant, topic, qos, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createReader(int participant, int topic, MemorySegment qos) {
        try {
            return (int) this.createReader.invokeExact(participant, topic, qos, MemorySegment.NULL);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createWaitset(int participant) {
        try {
            return (int) this.createWaitset.invokeExact(participant);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int createReadcondition(int reader, int mask) {
        try {
            return (int) this.createReadcondition.invokeExact(reader, mask);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int delete(int entity) {
        try {
            return (int) this.delete.invokeExact(entity);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getDomainid(int entity, MemorySegment domainIdOut) {
        try {
            return (int) this.getDomainid.invokeExact(entity, domainIdOut);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getGuid(int entity, MemorySegment guidOut) {
        try {
            return (int) this.getGuid.invokeExact(entity, guidOut);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int write(int writer, MemorySegment sample) {
        try {
            return (int) this.write.invokeExact(writer, sample);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /**
     * Sends the samples write batching queued in the writer. Cyclone 0.10 returns nothing: an invalid handle is
     * silently ignored, so callers check the writer's state themselves.
     */
    public void writeFlush(int writer) {
        try {
            this.writeFlush.invokeExact(writer);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int take(int reader, MemorySegment buffers, MemorySegment infos, long bufsz, int maxs) {
        try {
            return (int) this.take.invokeExact(reader, buffers, infos, bufsz, maxs);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int returnLoan(int reader, MemorySegment buffers, int bufsz) {
        try {
            return (int) this.returnLoan.invokeExact(reader, buffers, bufsz);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int waitsetAttach(int waitset, int entity, long token) {
        try {
            return (int) this.waitsetAttach.invokeExact(waitset, entity, token);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int waitsetWait(int waitset, MemorySegment tokens, long capacity, long timeoutNanos) {
        try {
            return (int) this.waitsetWait.invokeExact(waitset, tokens, capacity, timeoutNanos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int waitsetSetTrigger(int waitset, boolean trigger) {
        try {
            return (int) this.waitsetSetTrigger.invokeExact(waitset, trigger);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getPublicationMatchedStatus(int writer, MemorySegment status) {
        try {
            return (int) this.getPublicationMatchedStatus.invokeExact(writer, status);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getSubscriptionMatchedStatus(int reader, MemorySegment status) {
        try {
            return (int) this.getSubscriptionMatchedStatus.invokeExact(reader, status);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getSampleLostStatus(int reader, MemorySegment status) {
        try {
            return (int) this.getSampleLostStatus.invokeExact(reader, status);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getSampleRejectedStatus(int reader, MemorySegment status) {
        try {
            return (int) this.getSampleRejectedStatus.invokeExact(reader, status);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /** A new QoS object; the caller must pass it to {@link #deleteQos} in a {@code finally}. */
    public MemorySegment createQos() {
        try {
            MemorySegment qos = (MemorySegment) this.createQos.invokeExact();
            if (qos.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("dds_create_qos returned NULL");
            }
            return qos;
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void deleteQos(MemorySegment qos) {
        try {
            this.deleteQos.invokeExact(qos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetReliability(MemorySegment qos, int kind, long maxBlockingNanos) {
        try {
            this.qsetReliability.invokeExact(qos, kind, maxBlockingNanos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetHistory(MemorySegment qos, int kind, int depth) {
        try {
            this.qsetHistory.invokeExact(qos, kind, depth);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetDurability(MemorySegment qos, int kind) {
        try {
            this.qsetDurability.invokeExact(qos, kind);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetDurabilityService(MemorySegment qos, long cleanupDelayNanos, int historyKind, int historyDepth,
            int maxSamples, int maxInstances, int maxSamplesPerInstance) {
        try {
            this.qsetDurabilityService.invokeExact(qos, cleanupDelayNanos, historyKind, historyDepth, maxSamples,
                    maxInstances, maxSamplesPerInstance);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetDeadline(MemorySegment qos, long nanos) {
        try {
            this.qsetDeadline.invokeExact(qos, nanos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetLifespan(MemorySegment qos, long nanos) {
        try {
            this.qsetLifespan.invokeExact(qos, nanos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetPartition(MemorySegment qos, int count, MemorySegment names) {
        try {
            this.qsetPartition.invokeExact(qos, count, names);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetTransportPriority(MemorySegment qos, int value) {
        try {
            this.qsetTransportPriority.invokeExact(qos, value);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetResourceLimits(MemorySegment qos, int maxSamples, int maxInstances, int maxSamplesPerInstance) {
        try {
            this.qsetResourceLimits.invokeExact(qos, maxSamples, maxInstances, maxSamplesPerInstance);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void qsetUserdata(MemorySegment qos, MemorySegment value, long size) {
        try {
            this.qsetUserdata.invokeExact(qos, value, size);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int setQos(int entity, MemorySegment qos) {
        try {
            return (int) this.setQos.invokeExact(entity, qos);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean qgetPartition(MemorySegment qos, MemorySegment countOut, MemorySegment namesOut) {
        try {
            return (boolean) this.qgetPartition.invokeExact(qos, countOut, namesOut);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /** The matched writer's discovery data, or NULL if it is no longer matched; free with the next method. */
    public MemorySegment getMatchedPublicationData(int reader, long publicationHandle) {
        try {
            return (MemorySegment) this.getMatchedPublicationData.invokeExact(reader, publicationHandle);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void builtintopicFreeEndpoint(MemorySegment endpoint) {
        try {
            this.builtintopicFreeEndpoint.invokeExact(endpoint);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void free(MemorySegment pointer) {
        try {
            this.free.invokeExact(pointer);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /** Routes Cyclone's log (not its trace) to {@code callback}; {@code NULL} restores its default, stderr. */
    public void setLogSink(MemorySegment callback, MemorySegment userdata) {
        try {
            this.setLogSink.invokeExact(callback, userdata);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    /**
     * Routes Cyclone's trace (the categories a domain's {@code Tracing} turns on) to {@code callback}; {@code NULL}
     * restores its default, the domain's {@code Tracing/OutputFile}. A line in both log and trace reaches a callback
     * set for both with the same userdata once.
     */
    public void setTraceSink(MemorySegment callback, MemorySegment userdata) {
        try {
            this.setTraceSink.invokeExact(callback, userdata);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    private static RuntimeException rethrow(Throwable ex) {
        if (ex instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (ex instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("Unexpected checked exception from a downcall", ex);
    }
}

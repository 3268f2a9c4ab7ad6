package kr.c4i.gateway.norm.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.norm.NormLibraryUnavailableException;

/**
 * The downcall handles of one loaded libnorm, one typed method per {@link NormSymbol}. Loaded once per library name
 * for the life of the JVM: a C library whose threads may still run cannot be unloaded safely. Raw calls only; the
 * public binding ({@link kr.c4i.gateway.norm.NormInstance}, {@link kr.c4i.gateway.norm.NormSession}) owns the
 * handles and turns failures into {@link kr.c4i.gateway.norm.NormException}s.
 */
public final class Norm {

    /** Debian's soname ({@code libnorm1}); the unversioned {@code libnorm.so} comes only with {@code -dev}. */
    public static final String DEBIAN_LIBRARY = "libnorm.so.1";

    private static final Map<String, Norm> LOADED = new ConcurrentHashMap<>();

    private final String library;
    private final MethodHandle[] handles;

    private Norm(String library, SymbolLookup lookup) {
        this.library = library;
        Linker linker = Linker.nativeLinker();
        Map<NormSymbol, MethodHandle> bound = new EnumMap<>(NormSymbol.class);
        List<String> missing = new ArrayList<>();
        for (NormSymbol symbol : NormSymbol.values()) {
            lookup.find(symbol.symbol()).ifPresentOrElse(
                    address -> bound.put(symbol, linker.downcallHandle(address, symbol.descriptor())),
                    () -> missing.add(symbol.symbol()));
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(library + " is not NORM 1.5: it lacks " + missing);
        }
        this.handles = bound.values().toArray(MethodHandle[]::new);
    }

    /**
     * Loads libnorm from {@code configured} (a file name or path) or, when that is null, {@value #DEBIAN_LIBRARY}.
     *
     * @throws IllegalStateException if it does not load or lacks a function this binding calls
     */
    public static Norm load(@Nullable String configured) {
        String name = configured == null || configured.isBlank() ? DEBIAN_LIBRARY : configured.strip();
        return LOADED.computeIfAbsent(name, candidate -> {
            try {
                // Global arena: the library stays mapped for the JVM's life.
                return new Norm(candidate, SymbolLookup.libraryLookup(candidate, Arena.global()));
            }
            catch (IllegalArgumentException | IllegalCallerException ex) {
                throw new NormLibraryUnavailableException("Unable to load NORM from " + candidate + ": "
                        + ex.getMessage() + ". Install the Debian package "
                        + NormLibraryUnavailableException.DEBIAN_PACKAGE
                        + ", or name the library's path (and run with --enable-native-access=ALL-UNNAMED)", ex);
            }
        });
    }

    public String library() {
        return this.library;
    }

    private MethodHandle h(NormSymbol symbol) {
        return this.handles[symbol.ordinal()];
    }

    public MemorySegment createInstance() {
        try {
            return (MemorySegment) h(NormSymbol.CREATE_INSTANCE).invokeExact(false);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void stopInstance(MemorySegment instance) {
        try {
            h(NormSymbol.STOP_INSTANCE).invokeExact(instance);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean restartInstance(MemorySegment instance) {
        try {
            return (boolean) h(NormSymbol.RESTART_INSTANCE).invokeExact(instance);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void destroyInstance(MemorySegment instance) {
        try {
            h(NormSymbol.DESTROY_INSTANCE).invokeExact(instance);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean getNextEvent(MemorySegment instance, MemorySegment event, boolean wait) {
        try {
            return (boolean) h(NormSymbol.GET_NEXT_EVENT).invokeExact(instance, event, wait);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public MemorySegment createSession(MemorySegment instance, MemorySegment address, short port, int localNodeId) {
        try {
            return (MemorySegment) h(NormSymbol.CREATE_SESSION).invokeExact(instance, address, port, localNodeId);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void destroySession(MemorySegment session) {
        try {
            h(NormSymbol.DESTROY_SESSION).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setRxPortReuse(MemorySegment session, boolean enable, MemorySegment bindAddress,
            MemorySegment senderAddress, short senderPort) {
        try {
            h(NormSymbol.SET_RX_PORT_REUSE).invokeExact(session, enable, bindAddress, senderAddress, senderPort);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setUserTimer(MemorySegment session, double seconds) {
        try {
            h(NormSymbol.SET_USER_TIMER).invokeExact(session, seconds);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setTxOnly(MemorySegment session, boolean txOnly, boolean connect) {
        try {
            h(NormSymbol.SET_TX_ONLY).invokeExact(session, txOnly, connect);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean startSender(MemorySegment session, short instanceId, int bufferSpace, short segmentSize,
            short numData, short numParity, byte fecId) {
        try {
            return (boolean) h(NormSymbol.START_SENDER).invokeExact(session, instanceId, bufferSpace, segmentSize,
                    numData, numParity, fecId);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void stopSender(MemorySegment session) {
        try {
            h(NormSymbol.STOP_SENDER).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setTxRate(MemorySegment session, double bitsPerSecond) {
        try {
            h(NormSymbol.SET_TX_RATE).invokeExact(session, bitsPerSecond);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setCongestionControl(MemorySegment session, boolean enable, boolean adjustRate) {
        try {
            h(NormSymbol.SET_CONGESTION_CONTROL).invokeExact(session, enable, adjustRate);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setTxCacheBounds(MemorySegment session, long sizeMax, int countMin, int countMax) {
        try {
            h(NormSymbol.SET_TX_CACHE_BOUNDS).invokeExact(session, sizeMax, countMin, countMax);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setRxCacheLimit(MemorySegment session, short countMax) {
        try {
            h(NormSymbol.SET_RX_CACHE_LIMIT).invokeExact(session, countMax);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setAutoParity(MemorySegment session, byte autoParity) {
        try {
            h(NormSymbol.SET_AUTO_PARITY).invokeExact(session, autoParity);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setGrttEstimate(MemorySegment session, double seconds) {
        try {
            h(NormSymbol.SET_GRTT_ESTIMATE).invokeExact(session, seconds);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public double getGrttEstimate(MemorySegment session) {
        try {
            return (double) h(NormSymbol.GET_GRTT_ESTIMATE).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setBackoffFactor(MemorySegment session, double factor) {
        try {
            h(NormSymbol.SET_BACKOFF_FACTOR).invokeExact(session, factor);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setTxLoss(MemorySegment session, double percent) {
        try {
            h(NormSymbol.SET_TX_LOSS).invokeExact(session, percent);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public MemorySegment dataEnqueue(MemorySegment session, MemorySegment data, int length, MemorySegment info,
            int infoLength) {
        try {
            return (MemorySegment) h(NormSymbol.DATA_ENQUEUE).invokeExact(session, data, length, info, infoLength);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void objectCancel(MemorySegment object) {
        try {
            h(NormSymbol.OBJECT_CANCEL).invokeExact(object);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean requeueObject(MemorySegment session, MemorySegment object) {
        try {
            return (boolean) h(NormSymbol.REQUEUE_OBJECT).invokeExact(session, object);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean objectHasInfo(MemorySegment object) {
        try {
            return (boolean) h(NormSymbol.OBJECT_HAS_INFO).invokeExact(object);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void cancelWatermark(MemorySegment session) {
        try {
            h(NormSymbol.CANCEL_WATERMARK).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean setWatermark(MemorySegment session, MemorySegment object) {
        try {
            return (boolean) h(NormSymbol.SET_WATERMARK).invokeExact(session, object, false);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean resetWatermark(MemorySegment session) {
        try {
            return (boolean) h(NormSymbol.RESET_WATERMARK).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean addAckingNode(MemorySegment session, int nodeId) {
        try {
            return (boolean) h(NormSymbol.ADD_ACKING_NODE).invokeExact(session, nodeId);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int getAckingStatus(MemorySegment session, int nodeId) {
        try {
            return (int) h(NormSymbol.GET_ACKING_STATUS).invokeExact(session, nodeId);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean startReceiver(MemorySegment session, int bufferSpace) {
        try {
            return (boolean) h(NormSymbol.START_RECEIVER).invokeExact(session, bufferSpace);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void stopReceiver(MemorySegment session) {
        try {
            h(NormSymbol.STOP_RECEIVER).invokeExact(session);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setDefaultUnicastNack(MemorySegment session, boolean unicast) {
        try {
            h(NormSymbol.SET_DEFAULT_UNICAST_NACK).invokeExact(session, unicast);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void setDefaultSyncPolicy(MemorySegment session, int policy) {
        try {
            h(NormSymbol.SET_DEFAULT_SYNC_POLICY).invokeExact(session, policy);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public long objectGetSize(MemorySegment object) {
        try {
            return (long) h(NormSymbol.OBJECT_GET_SIZE).invokeExact(object);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public MemorySegment dataAccessData(MemorySegment object) {
        try {
            return (MemorySegment) h(NormSymbol.DATA_ACCESS_DATA).invokeExact(object);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public int nodeGetId(MemorySegment node) {
        try {
            return (int) h(NormSymbol.NODE_GET_ID).invokeExact(node);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public MemorySegment alloc(long bytes) {
        try {
            return (MemorySegment) h(NormSymbol.ALLOC).invokeExact(bytes);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void free(MemorySegment buffer) {
        try {
            h(NormSymbol.FREE).invokeExact(buffer);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean setMulticastInterface(MemorySegment session, MemorySegment interfaceName) {
        try {
            return (boolean) h(NormSymbol.SET_MULTICAST_INTERFACE).invokeExact(session, interfaceName);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean setTtl(MemorySegment session, byte ttl) {
        try {
            return (boolean) h(NormSymbol.SET_TTL).invokeExact(session, ttl);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean setLoopback(MemorySegment session, boolean loopback) {
        try {
            return (boolean) h(NormSymbol.SET_LOOPBACK).invokeExact(session, loopback);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public boolean setMulticastLoopback(MemorySegment session, boolean loopback) {
        try {
            return (boolean) h(NormSymbol.SET_MULTICAST_LOOPBACK).invokeExact(session, loopback);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public void removeAckingNode(MemorySegment session, int nodeId) {
        try {
            h(NormSymbol.REMOVE_ACKING_NODE).invokeExact(session, nodeId);
        }
        catch (Throwable ex) {
            throw rethrow(ex);
        }
    }

    public short objectGetInfo(MemorySegment object, MemorySegment buffer, short length) {
        try {
            return (short) h(NormSymbol.OBJECT_GET_INFO).invokeExact(object, buffer, length);
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
        throw new IllegalStateException(ex);
    }
}

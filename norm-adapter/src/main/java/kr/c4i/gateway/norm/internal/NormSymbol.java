package kr.c4i.gateway.norm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.FunctionDescriptor;

/**
 * The one list of every libnorm function this binding calls, with its C signature from Debian's {@code normApi.h}
 * (NORM 1.5.9, LP64). All are bound when the library loads, so a missing symbol fails at start-up with its name.
 * Handles are pointers, {@code bool} is one byte, {@code UINT16} a short read unsigned, {@code NormNodeId} and
 * {@code UINT32} an int, {@code NormSize} ({@code off_t}) a long. The header is C++ (default arguments, one
 * reference parameter), so it is bound by hand rather than generated; every default argument is passed explicitly.
 */
enum NormSymbol {

    // NormInstanceHandle NormCreateInstance(bool priorityBoost)
    CREATE_INSTANCE("NormCreateInstance", FunctionDescriptor.of(ADDRESS, JAVA_BOOLEAN)),
    // void NormStopInstance(NormInstanceHandle): wakes a thread blocked in NormGetNextEvent
    STOP_INSTANCE("NormStopInstance", FunctionDescriptor.ofVoid(ADDRESS)),
    // bool NormRestartInstance(NormInstanceHandle): starts a stopped instance's thread again
    RESTART_INSTANCE("NormRestartInstance", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS)),
    // void NormDestroyInstance(NormInstanceHandle)
    DESTROY_INSTANCE("NormDestroyInstance", FunctionDescriptor.ofVoid(ADDRESS)),
    // bool NormGetNextEvent(NormInstanceHandle, NormEvent*, bool waitForEvent)
    GET_NEXT_EVENT("NormGetNextEvent", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS, JAVA_BOOLEAN)),
    // NormSessionHandle NormCreateSession(NormInstanceHandle, const char* address, UINT16 port, NormNodeId local)
    CREATE_SESSION("NormCreateSession", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_SHORT, JAVA_INT)),
    // void NormDestroySession(NormSessionHandle)
    DESTROY_SESSION("NormDestroySession", FunctionDescriptor.ofVoid(ADDRESS)),
    // void NormSetRxPortReuse(session, bool enable, const char* rxBindAddress, const char* senderAddress,
    // UINT16 senderPort)
    SET_RX_PORT_REUSE("NormSetRxPortReuse",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_BOOLEAN, ADDRESS, ADDRESS, JAVA_SHORT)),
    // bool NormSetMulticastInterface(session, const char* interfaceName)
    SET_MULTICAST_INTERFACE("NormSetMulticastInterface", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS)),
    // bool NormSetTTL(session, unsigned char ttl)
    SET_TTL("NormSetTTL", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_BYTE)),
    // bool NormSetLoopback(session, bool): whether the session hears its own sender (its own node id)
    SET_LOOPBACK("NormSetLoopback", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_BOOLEAN)),
    // bool NormSetMulticastLoopback(session, bool): IP_MULTICAST_LOOP, so other sockets on this host hear the group
    SET_MULTICAST_LOOPBACK("NormSetMulticastLoopback", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_BOOLEAN)),
    // void NormSetUserTimer(session, double seconds): one NORM_USER_TIMEOUT event after that long
    SET_USER_TIMER("NormSetUserTimer", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
    // void NormSetTxOnly(session, bool txOnly, bool connectToSessionAddress)
    SET_TX_ONLY("NormSetTxOnly", FunctionDescriptor.ofVoid(ADDRESS, JAVA_BOOLEAN, JAVA_BOOLEAN)),
    // bool NormStartSender(session, NormSessionId instanceId, UINT32 bufferSpace, UINT16 segmentSize,
    // UINT16 numData, UINT16 numParity, UINT8 fecId)
    START_SENDER("NormStartSender", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_SHORT, JAVA_INT, JAVA_SHORT,
            JAVA_SHORT, JAVA_SHORT, JAVA_BYTE)),
    // void NormStopSender(session)
    STOP_SENDER("NormStopSender", FunctionDescriptor.ofVoid(ADDRESS)),
    // void NormSetTxRate(session, double bitsPerSecond)
    SET_TX_RATE("NormSetTxRate", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
    // void NormSetCongestionControl(session, bool enable, bool adjustRate)
    SET_CONGESTION_CONTROL("NormSetCongestionControl", FunctionDescriptor.ofVoid(ADDRESS, JAVA_BOOLEAN, JAVA_BOOLEAN)),
    // void NormSetTxCacheBounds(session, NormSize sizeMax, UINT32 countMin, UINT32 countMax)
    SET_TX_CACHE_BOUNDS("NormSetTxCacheBounds", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT)),
    // void NormSetRxCacheLimit(session, unsigned short countMax)
    SET_RX_CACHE_LIMIT("NormSetRxCacheLimit", FunctionDescriptor.ofVoid(ADDRESS, JAVA_SHORT)),
    // void NormSetAutoParity(session, unsigned char autoParity)
    SET_AUTO_PARITY("NormSetAutoParity", FunctionDescriptor.ofVoid(ADDRESS, JAVA_BYTE)),
    // void NormSetGrttEstimate(session, double seconds)
    SET_GRTT_ESTIMATE("NormSetGrttEstimate", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
    // double NormGetGrttEstimate(session)
    GET_GRTT_ESTIMATE("NormGetGrttEstimate", FunctionDescriptor.of(JAVA_DOUBLE, ADDRESS)),
    // void NormSetBackoffFactor(session, double)
    SET_BACKOFF_FACTOR("NormSetBackoffFactor", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
    // void NormSetTxLoss(session, double percent): NORM's own test hook, drops that share of what it sends
    SET_TX_LOSS("NormSetTxLoss", FunctionDescriptor.ofVoid(ADDRESS, JAVA_DOUBLE)),
    // NormObjectHandle NormDataEnqueue(session, const char* data, UINT32 len, const char* info, unsigned infoLen)
    DATA_ENQUEUE("NormDataEnqueue", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT)),
    // void NormObjectCancel(NormObjectHandle): stops sending it; NORM forgets it without a purge event
    OBJECT_CANCEL("NormObjectCancel", FunctionDescriptor.ofVoid(ADDRESS)),
    // bool NormRequeueObject(session, NormObjectHandle): sends an object it still holds once more, whole
    REQUEUE_OBJECT("NormRequeueObject", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS)),
    // bool NormObjectHasInfo(NormObjectHandle)
    OBJECT_HAS_INFO("NormObjectHasInfo", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS)),
    // void NormCancelWatermark(session)
    CANCEL_WATERMARK("NormCancelWatermark", FunctionDescriptor.ofVoid(ADDRESS)),
    // bool NormSetWatermark(session, NormObjectHandle, bool overrideFlush)
    SET_WATERMARK("NormSetWatermark", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, ADDRESS, JAVA_BOOLEAN)),
    // bool NormResetWatermark(session)
    RESET_WATERMARK("NormResetWatermark", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS)),
    // bool NormAddAckingNode(session, NormNodeId)
    ADD_ACKING_NODE("NormAddAckingNode", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_INT)),
    // void NormRemoveAckingNode(session, NormNodeId)
    REMOVE_ACKING_NODE("NormRemoveAckingNode", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
    // NormAckingStatus NormGetAckingStatus(session, NormNodeId)
    GET_ACKING_STATUS("NormGetAckingStatus", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
    // bool NormStartReceiver(session, UINT32 bufferSpace)
    START_RECEIVER("NormStartReceiver", FunctionDescriptor.of(JAVA_BOOLEAN, ADDRESS, JAVA_INT)),
    // void NormStopReceiver(session)
    STOP_RECEIVER("NormStopReceiver", FunctionDescriptor.ofVoid(ADDRESS)),
    // void NormSetDefaultUnicastNack(session, bool)
    SET_DEFAULT_UNICAST_NACK("NormSetDefaultUnicastNack", FunctionDescriptor.ofVoid(ADDRESS, JAVA_BOOLEAN)),
    // void NormSetDefaultSyncPolicy(session, NormSyncPolicy)
    SET_DEFAULT_SYNC_POLICY("NormSetDefaultSyncPolicy", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
    // UINT16 NormObjectGetInfo(NormObjectHandle, char* buffer, UINT16 bufferLen): copies the info, returns its length
    OBJECT_GET_INFO("NormObjectGetInfo", FunctionDescriptor.of(JAVA_SHORT, ADDRESS, ADDRESS, JAVA_SHORT)),
    // NormSize NormObjectGetSize(NormObjectHandle)
    OBJECT_GET_SIZE("NormObjectGetSize", FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
    // const char* NormDataAccessData(NormObjectHandle)
    DATA_ACCESS_DATA("NormDataAccessData", FunctionDescriptor.of(ADDRESS, ADDRESS)),
    // NormNodeId NormNodeGetId(NormNodeHandle)
    NODE_GET_ID("NormNodeGetId", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
    // char* NormAlloc(size_t): the buffer of an object NormDataEnqueue sends without copying
    ALLOC("NormAlloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG)),
    // void NormFree(char*)
    FREE("NormFree", FunctionDescriptor.ofVoid(ADDRESS));

    private final String symbol;
    private final FunctionDescriptor descriptor;

    NormSymbol(String symbol, FunctionDescriptor descriptor) {
        this.symbol = symbol;
        this.descriptor = descriptor;
    }

    String symbol() {
        return this.symbol;
    }

    FunctionDescriptor descriptor() {
        return this.descriptor;
    }
}

package kr.c4i.gateway.dds.cyclone;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.cyclone.internal.DdscLayouts;

/**
 * The one owner of Cyclone's log and trace sinks, which are process-wide: from the first participant on, every line
 * Cyclone writes goes to SLF4J (errors, warnings and info at their level, trace categories at debug) instead of
 * stderr or a domain's {@code Tracing/OutputFile}. Two more uses ride on it:
 * <ul>
 * <li>A thread can {@link #capture} the errors and warnings it logs itself, because Cyclone reports why a call failed
 * only in its log (a bad domain configuration, a secured participant it refuses).</li>
 * <li>A secured domain's lines feed its {@link HandshakeWatch}. A line names its domain only in its header ("[7]"),
 * so domains are told apart by id, which Cyclone makes unique in a process (a process that loaded two libddsc
 * builds and used one domain id in both would mix their lines).</li>
 * </ul>
 */
final class CycloneLog {

    private static final Logger log = LoggerFactory.getLogger(CycloneLog.class);

    /** Cyclone's log categories, {@code dds/ddsrt/log.h}. */
    private static final int DDS_LC_FATAL = 1;
    private static final int DDS_LC_ERROR = 2;
    private static final int DDS_LC_WARNING = 4;
    private static final int DDS_LC_INFO = 8;

    private static final ThreadLocal<StringBuilder> CAPTURE = new ThreadLocal<>();
    private static final Map<Integer, HandshakeWatch> WATCHES = new ConcurrentHashMap<>();
    private static final Set<Ddsc> INSTALLED = ConcurrentHashMap.newKeySet();
    private static final MemorySegment SINK;

    static {
        try {
            SINK = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(CycloneLog.class, "logged",
                    MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class)),
                    FunctionDescriptor.ofVoid(ADDRESS, ADDRESS.withTargetLayout(DdscLayouts.LOG_DATA)),
                    Arena.global());
        }
        catch (ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private CycloneLog() {
    }

    /**
     * Routes the library's log and trace here, once per library. Call before its first domain, so what creating it
     * logs comes here too, and a secured domain's watch sees its discovery from the start.
     */
    static void install(Ddsc ddsc) {
        if (INSTALLED.add(ddsc)) {
            // The same function and userdata for both, so a line in log and trace arrives once.
            ddsc.setLogSink(SINK, MemorySegment.NULL);
            ddsc.setTraceSink(SINK, MemorySegment.NULL);
        }
    }

    /** Feeds the domain's lines to {@code watch} until {@link #unwatch}. */
    static void watch(int domainId, HandshakeWatch watch) {
        WATCHES.put(domainId, watch);
    }

    static void unwatch(int domainId) {
        WATCHES.remove(domainId);
    }

    /** Starts keeping the errors and warnings this thread logs, instead of logging them; close to stop. */
    static Capture capture() {
        StringBuilder lines = new StringBuilder();
        CAPTURE.set(lines);
        return new Capture(lines);
    }

    /** What one thread logged between {@link #capture} and {@link #close}. */
    static final class Capture implements AutoCloseable {

        private final StringBuilder lines;

        private Capture(StringBuilder lines) {
            this.lines = lines;
        }

        /** The lines joined by "; ", or empty. */
        String text() {
            return this.lines.toString().strip();
        }

        @Override
        public void close() {
            CAPTURE.remove();
        }
    }

    /** Cyclone's {@code dds_log_write_fn_t}; must not throw into native code. */
    @SuppressWarnings("unused")
    private static void logged(MemorySegment userdata, MemorySegment data) {
        try {
            int priority = data.get(JAVA_INT, DdscLayouts.LOG_DATA_PRIORITY);
            MemorySegment message = data.get(ADDRESS, DdscLayouts.LOG_DATA_MESSAGE);
            String line = text(message, data.get(JAVA_LONG, DdscLayouts.LOG_DATA_SIZE));
            if (line == null) {
                return;
            }
            route(priority, line.strip());
            if (!WATCHES.isEmpty()) {
                HandshakeWatch watch = WATCHES.get(domainId(header(message, data.get(JAVA_LONG,
                        DdscLayouts.LOG_DATA_HDRSIZE))));
                if (watch != null) {
                    watch.accept(line);
                }
            }
        }
        catch (RuntimeException | Error ex) {
            // Never into native code: the line is lost, the call it came from goes on.
        }
    }

    private static void route(int priority, String line) {
        StringBuilder capture = CAPTURE.get();
        if (capture != null && (priority & (DDS_LC_FATAL | DDS_LC_ERROR | DDS_LC_WARNING)) != 0) {
            capture.append(capture.isEmpty() ? "" : "; ").append(line);
        }
        else if ((priority & (DDS_LC_FATAL | DDS_LC_ERROR)) != 0) {
            log.error("Cyclone DDS: {}", line);
        }
        else if ((priority & DDS_LC_WARNING) != 0) {
            log.warn("Cyclone DDS: {}", line);
        }
        else if ((priority & DDS_LC_INFO) != 0) {
            log.info("Cyclone DDS: {}", line);
        }
        else {
            log.debug("Cyclone DDS: {}", line);
        }
    }

    private static @Nullable String text(MemorySegment message, long size) {
        // message points past Cyclone's line header (timestamp, domain, thread), which hdrsize counts; size does not.
        if (message.equals(MemorySegment.NULL) || size <= 0 || size > 64 * 1024) {
            return null;
        }
        return new String(message.reinterpret(size).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** The header Cyclone wrote before {@code message}: timestamp, domain id and thread. */
    private static String header(MemorySegment message, long headerSize) {
        if (headerSize <= 0 || headerSize > 256) {
            return "";
        }
        return new String(MemorySegment.ofAddress(message.address() - headerSize).reinterpret(headerSize)
                .toArray(JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    /** The domain id in a header such as {@code "1795424082.685159 [77]        fsm: "}; -1 for "[]", the global log. */
    static int domainId(String header) {
        int open = header.indexOf('[');
        int close = header.indexOf(']', open + 1);
        if (open < 0 || close < 0 || close == open + 1 || close - open > 10) {
            return -1;
        }
        try {
            return Integer.parseInt(header, open + 1, close, 10);
        }
        catch (NumberFormatException ex) {
            return -1;
        }
    }
}

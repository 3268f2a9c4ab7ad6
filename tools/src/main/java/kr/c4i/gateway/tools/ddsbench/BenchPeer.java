package kr.c4i.gateway.tools.ddsbench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.WaitSet;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.dds.transport.KmtfTypes;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tools.ExitCode;

/**
 * The benchmark's child roles, each in its own JVM so that samples cross loopback as between two nodes. Each prints
 * {@code READY} once its entities exist, {@code MATCHED} once its peer's are matched, reads commands from standard
 * input ({@code END <n>} or end of input), prints {@code RESULT ...} and exits; it also exits after
 * {@code --deadline} seconds whatever happens.
 */
final class BenchPeer {

    static final String THROUGHPUT_TOPIC = "bench/throughput";
    static final String KMTF_THROUGHPUT_TOPIC = "bench/throughput_kmtf";
    static final String PING_TOPIC = "bench/ping";
    static final String PONG_TOPIC = "bench/pong";

    /** Ping/pong QoS, as ddsperf's: RELIABLE, KEEP_LAST 1. */
    static final Qos PING_QOS = Qos.reliable().withHistory(Qos.History.keepLast(1));

    private BenchPeer() {
    }

    static int run(BenchOptions options) throws Exception {
        Thread.ofPlatform().daemon().name("deadline").start(() -> {
            try {
                Thread.sleep(options.deadline() * 1000L);
            }
            catch (InterruptedException ex) {
                return;
            }
            System.out.println("DEADLINE passed after " + options.deadline() + " s; exiting");
            System.out.flush();
            Runtime.getRuntime().halt(ExitCode.SOFTWARE.code());
        });
        return switch (options.mode()) {
            case "sub" -> options.type().equals("kmtf") ? sub(options, KMTF_THROUGHPUT_TOPIC, KmtfTypes.MESSAGE,
                    KmtfMessageSample::seq) : sub(options, THROUGHPUT_TOPIC, BenchSample.TYPE, BenchSample::seq);
            case "pong" -> pong(options);
            case "readers" -> readers(options);
            default -> throw new IllegalArgumentException("Not a child mode: " + options.mode());
        };
    }

    /** Counts what arrives, in order; written by the receive thread only. */
    private static final class SeqCheck<T> implements Consumer<T> {

        private final ToLongFunction<T> seqOf;
        private long expected = 1;
        private long count;
        private long gapCount;
        private long duplicateCount;
        private volatile long firstNanos;
        private volatile long lastNanos;
        volatile long received;
        volatile long gaps;
        volatile long duplicates;

        SeqCheck(ToLongFunction<T> seqOf) {
            this.seqOf = seqOf;
        }

        @Override
        public void accept(T sample) {
            long seq = this.seqOf.applyAsLong(sample);
            if (seq == this.expected) {
                this.expected++;
            }
            else if (seq > this.expected) {
                this.gapCount += seq - this.expected;
                this.expected = seq + 1;
            }
            else {
                this.duplicateCount++;
            }
            this.count++;
        }

        /** Makes the counts of the last take visible to other threads. */
        void publish() {
            long now = System.nanoTime();
            if (this.firstNanos == 0) {
                this.firstNanos = now;
            }
            this.lastNanos = now;
            this.gaps = this.gapCount;
            this.duplicates = this.duplicateCount;
            this.received = this.count;
        }

        double firstToLastSeconds() {
            return (this.lastNanos - this.firstNanos) / 1e9;
        }
    }

    private static <T> int sub(BenchOptions options, String topicName, DataType<T> type, ToLongFunction<T> seqOf)
            throws Exception {
        SeqCheck<T> check = new SeqCheck<>(seqOf);
        try (DomainParticipant participant = DomainParticipant.create(options.participant(true))) {
            Topic<T> topic = participant.createTopic(topicName, type);
            DataReader<T> reader = participant.createReader(topic, Qos.reliable());
            WaitSet waitSet = participant.createWaitSet();
            waitSet.attach(reader);
            Flag stop = new Flag();
            Thread receiver = Thread.ofPlatform().name("receive").start(() -> {
                while (!stop.value) {
                    if (waitSet.await(Duration.ofMillis(100)).isEmpty()) {
                        continue;
                    }
                    while (reader.take(512, check) > 0) {
                        check.publish();
                    }
                }
            });
            System.out.println("READY");
            System.out.flush();
            long pid = ProcessHandle.current().pid();
            long start = System.nanoTime();
            Thread reporter = Thread.ofPlatform().daemon().name("report").start(() -> {
                awaitQuietly(() -> reader.status().matchedWriters() >= 1);
                System.out.println("MATCHED");
                System.out.flush();
                long lastCount = 0;
                long lastGaps = 0;
                long lastTick = System.nanoTime();
                while (!stop.value) {
                    sleepQuietly(1000 - (System.nanoTime() - lastTick) / 1_000_000);
                    long tick = System.nanoTime();
                    long count = check.received;
                    long gaps = check.gaps;
                    if (count > lastCount) {
                        System.out.println(DdsPerfOutput.subLine(pid, (tick - start) / 1e9, options.size(), count, gaps,
                                count - lastCount, gaps - lastGaps, (tick - lastTick) / 1e9));
                        System.out.flush();
                    }
                    lastCount = count;
                    lastGaps = gaps;
                    lastTick = tick;
                }
            });
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.startsWith("END ")) {
                    long expected = Long.parseLong(line.substring(4).strip());
                    // Wait for the rest, up to 3 s without progress.
                    long last = -1;
                    long progressAt = System.nanoTime();
                    while (check.received < expected && System.nanoTime() - progressAt < 3_000_000_000L) {
                        if (check.received != last) {
                            last = check.received;
                            progressAt = System.nanoTime();
                        }
                        Thread.sleep(5);
                    }
                    Thread.sleep(1100); // one more report line, and anything late (duplicates)
                    System.out.printf(Locale.ROOT, "RESULT received=%d expected=%d gaps=%d duplicates=%d "
                            + "first_to_last_s=%.3f%n", check.received, expected, check.gaps, check.duplicates,
                            check.firstToLastSeconds());
                    System.out.flush();
                    break;
                }
            }
            stop.value = true;
            waitSet.wakeup();
            receiver.join(5000);
            reporter.join(2000);
        }
        return ExitCode.OK.code();
    }

    private static int pong(BenchOptions options) throws Exception {
        AtomicLong echoed = new AtomicLong();
        try (DomainParticipant participant = DomainParticipant.create(options.participant(true))) {
            Topic<BenchSample> ping = participant.createTopic(PING_TOPIC, BenchSample.TYPE);
            Topic<BenchSample> pong = participant.createTopic(PONG_TOPIC, BenchSample.TYPE);
            DataReader<BenchSample> reader = participant.createReader(ping, PING_QOS);
            DataWriter<BenchSample> writer = participant.createWriter(pong, PING_QOS);
            WaitSet waitSet = participant.createWaitSet();
            waitSet.attach(reader);
            Flag stop = new Flag();
            Thread echo = Thread.ofPlatform().name("echo").start(() -> {
                while (!stop.value) {
                    if (waitSet.await(Duration.ofMillis(100)).isEmpty()) {
                        continue;
                    }
                    List<BenchSample> pings = reader.take(64);
                    for (BenchSample sample : pings) {
                        writer.write(sample);
                        echoed.incrementAndGet();
                    }
                    if (!pings.isEmpty()) {
                        writer.flush(); // write batching: send the pong now
                    }
                }
            });
            System.out.println("READY");
            System.out.flush();
            Thread.ofPlatform().daemon().name("match").start(() -> {
                awaitQuietly(() -> reader.status().matchedWriters() >= 1 && writer.status().matchedReaders() >= 1);
                System.out.println("MATCHED");
                System.out.flush();
            });
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.startsWith("END")) {
                    break;
                }
            }
            stop.value = true;
            waitSet.wakeup();
            echo.join(5000);
            System.out.println("RESULT echoed=" + echoed.get());
            System.out.flush();
        }
        return ExitCode.OK.code();
    }

    private static int readers(BenchOptions options) throws Exception {
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        AtomicLong received = new AtomicLong();
        try (DdsTransport transport = new DdsTransport(NodeId.of("bench-peer"), catalogue, catalogue.ids(),
                DdsTransportSettings.defaults().withParticipant(options.participant(true))
                        .withMaxBatch(options.peerMaxBatch()))) {
            transport.open();
            transport.subscribe(batch -> received.addAndGet(batch.size()));
            System.out.println("READY " + transport.openTime().toMillis() + " " + catalogue.size());
            System.out.flush();
            Flag stop = new Flag();
            Thread reporter = Thread.ofPlatform().daemon().name("report").start(() -> {
                long last = -1;
                while (!stop.value) {
                    long now = received.get();
                    if (now != last) {
                        System.out.println("RECEIVED " + now);
                        System.out.flush();
                        last = now;
                    }
                    sleepQuietly(50);
                }
            });
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.startsWith("END")) {
                    break;
                }
            }
            stop.value = true;
            reporter.join(1000);
            System.out.println("RESULT received=" + received.get() + " samplesLost=" + transport.stats().samplesLost());
            System.out.flush();
        }
        return ExitCode.OK.code();
    }

    private static final class Flag {
        volatile boolean value;
    }

    private static void awaitQuietly(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            sleepQuietly(2);
        }
    }

    static void sleepQuietly(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads a line's {@code key=value} field. */
    static String field(String line, String key) {
        for (String part : line.split("\\s+")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new IllegalArgumentException("No " + key + "= in '" + line + "'");
    }
}

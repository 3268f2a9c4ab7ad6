package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.github.luben.zstd.ZstdDictTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.DeflateCompression;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.frame.FramePacker;
import kr.c4i.gateway.wan.frame.KmtfDictionary;
import kr.c4i.gateway.wan.frame.PackedFrame;
import kr.c4i.gateway.wan.relay.CustodyEnvelopes;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;
import kr.c4i.gateway.wan.store.ForwardedStep;

/**
 * Measures what a message costs on the WAN: the demo's message mix packed into frames of the target size, without
 * compression, with the gateway's Deflate and KMTF dictionary, and with zstd and a dictionary trained on the same
 * catalogue shapes; and how fast one thread packs and unpacks them.
 */
@Command(name = "wan-bytes", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Measure WAN bytes per message and packing speed for each frame compression.",
        description = "Generates the demo's message mix (realistic KMTF messages of the catalogue's types, 200 bytes "
                + "to 4 KiB, each with the trace it has when it leaves its first site), packs it into frames of "
                + "--frame-bytes with each compression, checks every frame decodes to the messages packed, and "
                + "prints bytes per message and messages per second of one thread (per second of its CPU time, which "
                + "neighbours on a shared machine disturb less than wall time) and of --threads packers at once (wall "
                + "time). Nothing is sent; no node is started.")
final class WanBytesCommand implements Callable<Integer> {

    private static final HexFormat HEX = HexFormat.of();

    @Spec
    CommandSpec spec;

    @Option(names = { "-m", "--messages" }, defaultValue = "20000", converter = OptionValues.PositiveInt.class,
            description = "Messages in the mix.")
    int messages;

    @Option(names = "--frame-bytes", defaultValue = "1200", converter = OptionValues.PositiveInt.class,
            description = "Target frame size (the link's MTU payload).")
    int frameBytes;

    @Option(names = "--max-frame-bytes", defaultValue = "65000", converter = OptionValues.PositiveInt.class,
            description = "Largest frame the link takes, for a message that alone exceeds the target.")
    int maxFrameBytes;

    @Option(names = "--seconds", defaultValue = "3", converter = OptionValues.PositiveInt.class,
            description = "Time spent measuring speed, per compression and direction.")
    int seconds;

    @Option(names = "--threads", defaultValue = "2", converter = OptionValues.PositiveInt.class,
            description = "Threads packing at once, each with its own packer, for the combined speed.")
    int threads;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the mix (the demo uses 42).")
    long seed;

    @Option(names = "--trace-context", description = "Give every message a W3C trace context of its creation, as "
            + "an application that traces writes into the outbox (or a bridge with gateway.tracing.enabled makes).")
    boolean traceContext;

    /** What one compression gave. */
    private record Result(String name, long frames, long frameBytes, int messages, long compressions,
            double packPerSecond, double parallelPackPerSecond, double unpackPerSecond) {
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        List<RelayedEnvelope> mix = mix(catalogue);
        long lanBytes = mix.stream().mapToLong(r -> lanSampleBytes(r.envelope())).sum();
        long bodyBytes = mix.stream().mapToLong(r -> r.envelope().body().length).sum();

        // Dictionary ids from 200 up are for this measurement only; gateways know none of them.
        List<byte[]> samples = KmtfDictionary.samples(catalogue);
        byte[] trained = train(samples, 16 * 1024);
        byte[] kmtf = KmtfDictionary.bytes();
        List<FrameCompression> compressions = List.of(FrameCompression.NONE,
                new DeflateCompression(200, "deflate-9, no dictionary", new byte[0], 9),
                new DeflateCompression(201, "deflate-1+kmtf.dict", kmtf, 1),
                KmtfDictionary.DEFLATE,
                new DeflateCompression(202, "deflate-9+kmtf.dict", kmtf, 9),
                new ZstdFrameCompression(210, "zstd-3+kmtf.dict", kmtf, 3),
                new ZstdFrameCompression(211, "zstd-9+kmtf.dict", kmtf, 9),
                new ZstdFrameCompression(212, "zstd-19+kmtf.dict", kmtf, 19),
                new ZstdFrameCompression(220, "zstd-3+trained", trained, 3),
                new ZstdFrameCompression(221, "zstd-9+trained", trained, 9),
                new ZstdFrameCompression(222, "zstd-19+trained", trained, 19));

        out.printf(Locale.ROOT, "WAN bytes per message: %d messages of the demo's mix (seed %d), body %.0f bytes on "
                + "average; target frame %d bytes, largest %d; %s; load average %s%n", mix.size(), seed,
                (double) bodyBytes / mix.size(), frameBytes, maxFrameBytes,
                Instant.now().truncatedTo(ChronoUnit.SECONDS), LoadAverage.read().map(Object::toString).orElse("unknown"));
        out.printf(Locale.ROOT, "kmtf.dict %d bytes; zstd dictionary trained on %d catalogue samples: %d bytes%n%n",
                kmtf.length, samples.size(), trained.length);
        out.println("| compression | WAN bytes/msg | of LAN bytes | msgs/frame | frame bytes (avg) "
                + "| compressions/frame | pack msg per CPU-s | pack msg/s, " + threads + " threads (wall) "
                + "| unpack msg per CPU-s |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        out.printf(Locale.ROOT, "| LAN envelope (DDS sample) | %.1f | 100%% | | | | | | |%n",
                (double) lanBytes / mix.size());
        out.flush();
        for (FrameCompression compression : compressions) {
            Result result = measure(compression, mix);
            out.printf(Locale.ROOT, "| %s | %.1f | %.1f%% | %.2f | %.0f | %.2f | %,.0f | %,.0f | %,.0f |%n",
                    result.name(),
                    (double) result.frameBytes() / result.messages(), 100.0 * result.frameBytes() / lanBytes,
                    (double) result.messages() / result.frames(), (double) result.frameBytes() / result.frames(),
                    (double) result.compressions() / result.frames(), result.packPerSecond(),
                    result.parallelPackPerSecond(), result.unpackPerSecond());
            out.flush();
        }
        printCustodySteps(out, mix);
        return ExitCode.OK.code();
    }

    /**
     * What the destination site's gateway sends back to the origin's for the same messages when it forwards its
     * custody steps ({@code gateway.custody.forward}): a {@code delivered} step for each row of its log (its
     * {@code stored} step is not forwarded: the origin's gateway logged the acknowledgement that says it), which names
     * the messages of one delivery transaction, a handful at a trickle, tens to hundreds under load; with
     * {@code stored} too, as a first version forwarded. Packed as the gateway sends them, with its Deflate and
     * dictionary; against the bytes the messages themselves took on the way out.
     */
    private void printCustodySteps(PrintWriter out, List<RelayedEnvelope> mix) throws Exception {
        FrameCodec codec = new FrameCodec(KmtfDictionary.DEFLATE);
        long outBytes = pack(new FramePacker(codec, frameBytes, maxFrameBytes), mix).stream()
                .mapToLong(f -> f.length).sum();
        out.printf(Locale.ROOT, "%nCustody steps back to the origin's site (%s):%n%n", KmtfDictionary.DEFLATE.name());
        out.println("| messages per logged row | steps forwarded | WAN bytes back per message | of the bytes out |");
        out.println("|---:|---|---:|---:|");
        for (int perRow : List.of(1, 8, 64, 500)) {
            for (List<String> events : List.of(List.of("delivered"), List.of("stored", "delivered"))) {
                printCustodySteps(out, mix, perRow, events, outBytes);
            }
        }
    }

    /** One row of that table: rows of {@code perRow} messages, these steps of each. */
    private void printCustodySteps(PrintWriter out, List<RelayedEnvelope> mix, int perRow, List<String> events,
            long outBytes) throws Exception {
        FrameCodec codec = new FrameCodec(KmtfDictionary.DEFLATE);
        SiteId origin = SiteId.of("site-a");
        SiteId destination = SiteId.of("site-b");
        List<RelayedEnvelope> steps = new ArrayList<>();
        long row = 0;
        for (int from = 0; from < mix.size(); from += perRow) {
            List<Envelope> messages = mix.subList(from, Math.min(mix.size(), from + perRow)).stream()
                    .map(RelayedEnvelope::envelope).toList();
            Instant at = messages.getLast().createdAt().plusMillis(200);
            for (String event : events) {
                row++;
                List<List<String>> parts = ForwardedStep.parts(messages.stream().map(Envelope::messageId).toList(),
                        ForwardedStep.maxIdBytes(maxFrameBytes));
                for (int part = 0; part < parts.size(); part++) {
                    List<String> ids = parts.get(part);
                    ForwardedStep step = new ForwardedStep(destination, row, part, at, event, List.of("@lan"), "lan",
                            messages.getFirst().precedence().name(),
                            "stored".equals(event) ? "from site " + origin : null, messages.getFirst().origin(), ids);
                    steps.add(new RelayedEnvelope(CustodyEnvelopes.envelope(step), List.of(destination),
                            new java.util.TreeSet<>(List.of(origin))));
                }
            }
        }
        long backBytes = pack(new FramePacker(codec, frameBytes, maxFrameBytes), steps).stream()
                .mapToLong(f -> f.length).sum();
        out.printf(Locale.ROOT, "| %d | %s | %.1f | %.1f%% |%n", perRow, String.join(", ", events),
                (double) backBytes / mix.size(), 100.0 * backBytes / outBytes);
        out.flush();
    }

    /** Traces are not part of an envelope's equality: compared as the text the LAN transports carry. */
    private static List<String> traces(List<RelayedEnvelope> envelopes) {
        return envelopes.stream().map(r -> r.envelope().traceText()).toList();
    }

    /**
     * The demo's mix: its generator, its types, its seed; relayed from one site to another, with the trace a message
     * has when it leaves its first site (its node's hop and that site's gateway's).
     */
    private List<RelayedEnvelope> mix(KmtfCatalogue catalogue) {
        KmtfLoadGenerator generator = new KmtfLoadGenerator(catalogue, "NODEA", 0, false, seed);
        List<MessageType> types = catalogue.types().stream().filter(t -> t.maxSize() >= 1024).toList();
        SplittableRandom random = new SplittableRandom(seed);
        // Times of their own: the mix's messages stay those of the seed.
        SplittableRandom hopTimes = new SplittableRandom(seed + 1);
        SplittableRandom contexts = new SplittableRandom(seed + 2);
        Instant start = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RelayedEnvelope> mix = new ArrayList<>(messages);
        for (int i = 0; i < messages; i++) {
            MessageType type = types.get(random.nextInt(types.size()));
            Instant createdAt = start.plus(i * 397L, ChronoUnit.MICROS);
            Envelope envelope = new Envelope(new UUID(random.nextLong(), random.nextLong()).toString(),
                    NodeId.of("node-a"), type.id(), type.defaultPrecedence(), "UNCLASSIFIED", createdAt,
                    generator.message(type, 0));
            // The bridge sends within milliseconds of the outbox insert; the site's gateway stores it some later.
            Instant sent = createdAt.plusMillis(1 + hopTimes.nextInt(20));
            envelope = envelope.withHop(HopTrace.Hop.node(NodeId.of("node-a"), HopTrace.Action.SENT, sent))
                    .withHop(HopTrace.Hop.site(SiteId.of("site-a"), HopTrace.Action.RELAYED,
                            sent.plusMillis(5 + hopTimes.nextInt(100))));
            if (traceContext) {
                envelope = envelope.withTraceParent(TraceParent.of(HEX.formatHex(bytes(contexts, 16)),
                        HEX.formatHex(bytes(contexts, 8)), 1));
            }
            mix.add(new RelayedEnvelope(envelope, List.of(SiteId.of("site-a")),
                    new java.util.TreeSet<>(List.of(SiteId.of("site-b")))));
        }
        return mix;
    }

    /** Random bytes, never all zeros (a trace context's ids must not be). */
    private static byte[] bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        bytes[0] |= 1;
        return bytes;
    }

    /** The envelope as the LAN's DDS sample kmtf::KmtfMessage in XCDR2 (4-byte alignment, 4-byte header). */
    static long lanSampleBytes(Envelope envelope) {
        long size = 4;
        for (String text : List.of(envelope.messageId(), envelope.origin().value(), envelope.kmtfType())) {
            size = align4(size) + 4 + text.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        size = align4(size) + 4;
        size = align4(size) + 4 + envelope.classification().getBytes(StandardCharsets.UTF_8).length + 1;
        size = align4(size) + 3 * 8;
        size = size + 4 + envelope.body().length;
        for (String text : List.of(envelope.traceText(), TraceParent.text(envelope.traceParent()))) {
            size = align4(size) + 4 + text.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        return size;
    }

    private static long align4(long size) {
        return (size + 3) & ~3L;
    }

    private static byte[] train(List<byte[]> samples, int dictionaryBytes) {
        int total = samples.stream().mapToInt(s -> s.length).sum();
        ZstdDictTrainer trainer = new ZstdDictTrainer(total, dictionaryBytes);
        samples.forEach(trainer::addSample);
        return trainer.trainSamples();
    }

    private Result measure(FrameCompression compression, List<RelayedEnvelope> mix) throws Exception {
        FrameCodec codec = new FrameCodec(compression);
        FramePacker packer = new FramePacker(codec, frameBytes, maxFrameBytes);
        List<byte[]> frames = pack(packer, mix);
        long compressions = packer.compressions();
        List<RelayedEnvelope> unpacked = new ArrayList<>(mix.size());
        for (byte[] frame : frames) {
            unpacked.addAll(((DataFrame) codec.decode(frame)).envelopes());
        }
        if (!unpacked.equals(mix) || !traces(unpacked).equals(traces(mix))) {
            throw new IllegalStateException(compression.name() + ": the frames do not decode to the messages packed");
        }
        // Per second of this thread's CPU time: on a shared machine, wall time measures the neighbours too.
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long wallDeadline = System.nanoTime() + 4 * seconds * 1_000_000_000L;
        long cpuStarted = cpu.getCurrentThreadCpuTime();
        long packed = 0;
        while (cpu.getCurrentThreadCpuTime() - cpuStarted < seconds * 1_000_000_000L
                && System.nanoTime() < wallDeadline) {
            pack(packer, mix);
            packed += mix.size();
        }
        double packPerSecond = packed * 1e9 / (cpu.getCurrentThreadCpuTime() - cpuStarted);
        double parallelPackPerSecond = packInParallel(codec, mix);
        wallDeadline = System.nanoTime() + 4 * seconds * 1_000_000_000L;
        cpuStarted = cpu.getCurrentThreadCpuTime();
        long unpackedCount = 0;
        while (cpu.getCurrentThreadCpuTime() - cpuStarted < seconds * 1_000_000_000L
                && System.nanoTime() < wallDeadline) {
            for (byte[] frame : frames) {
                unpackedCount += ((DataFrame) codec.decode(frame)).envelopes().size();
            }
        }
        double unpackPerSecond = unpackedCount * 1e9 / (cpu.getCurrentThreadCpuTime() - cpuStarted);
        return new Result(compression.name(), frames.size(), frames.stream().mapToLong(f -> f.length).sum(),
                mix.size(), compressions, packPerSecond, parallelPackPerSecond, unpackPerSecond);
    }

    /** Messages per second of {@link #threads} packers at once, each packing the whole mix over and over. */
    private double packInParallel(FrameCodec codec, List<RelayedEnvelope> mix) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Callable<Long>> packers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            packers.add(() -> {
                FramePacker packer = new FramePacker(codec, frameBytes, maxFrameBytes);
                long packed = 0;
                while (System.nanoTime() < deadline) {
                    pack(packer, mix);
                    packed += mix.size();
                }
                return packed;
            });
        }
        long started = System.nanoTime();
        long packed = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (Future<Long> result : pool.invokeAll(packers)) {
                packed += result.get();
            }
        }
        return packed * 1e9 / (System.nanoTime() - started);
    }

    private static List<byte[]> pack(FramePacker packer, List<RelayedEnvelope> mix) throws Exception {
        List<byte[]> frames = new ArrayList<>();
        int next = 0;
        long seq = 0;
        while (next < mix.size()) {
            PackedFrame packed = packer.pack(1, seq++, mix.subList(next, Math.min(mix.size(), next + 256)));
            frames.add(packed.frame());
            next += packed.envelopes();
        }
        return frames;
    }
}

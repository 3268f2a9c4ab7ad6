package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.bridge.inbox.InboundValidator;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.tools.ExitCode;

/**
 * Measures what checking one KMTF message costs a bridge thread: the outbox poller's {@link KmtfValidator#validate}
 * and the receive loop's {@link InboundValidator#check} (the same validation, then the envelope's fields and the
 * text's classification), on one thread, over the benchmark's message mix.
 */
@Command(name = "kmtf-bench", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Measure the CPU time and allocation of validating one KMTF message.",
        description = "Renders --messages messages of the load generator's mix once (bench's 200-byte RELIABLE "
                + "types by default; --size 0 for the demo's realistic mix of 200 bytes to 4 KiB), then on one thread "
                + "validates them over and over as the outbox poller does (KmtfValidator.validate) and as the "
                + "receive loop does (InboundValidator.check): --warmup seconds for the JIT compiler, then --rounds "
                + "rounds of --seconds each. Prints per round and as the median with the spread: this thread's CPU "
                + "time per message (which neighbours on a shared machine disturb less than wall time), messages "
                + "per CPU-second, wall time per message and bytes allocated per message. Nothing is started.")
final class KmtfBenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = { "-m", "--messages" }, defaultValue = "2048", converter = OptionValues.PositiveInt.class,
            description = "Messages in the mix.")
    int messages;

    /** Checked against the catalogue in its setter. */
    int size;

    @Option(names = "--size", defaultValue = "200", description = "Body size in bytes (0: the demo's realistic mix).")
    void size(int bytes) {
        int largest = KmtfCatalogue.loadDefault().types().stream().filter(t -> t.reliability() == Reliability.RELIABLE)
                .mapToInt(MessageType::maxSize).max().orElse(0);
        if (bytes < 0 || bytes > largest) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--size': " + bytes
                    + " is out of range: use 0 (a realistic mix) to " + largest
                    + ", the largest RELIABLE catalogue type");
        }
        size = bytes;
    }

    @Option(names = "--warmup", defaultValue = "5", converter = OptionValues.PositiveInt.class,
            description = "Seconds of validating before the rounds, for the JIT compiler, per path.")
    int warmup;

    @Option(names = "--rounds", defaultValue = "5", converter = OptionValues.PositiveInt.class,
            description = "Rounds measured per path.")
    int rounds;

    @Option(names = "--seconds", defaultValue = "2", converter = OptionValues.PositiveInt.class,
            description = "Seconds of each round.")
    int seconds;

    /** One round: messages checked, and this thread's CPU time, wall time and allocation for them. */
    private record Round(long messages, long cpuNanos, long wallNanos, long allocatedBytes) {

        double cpuPerMessage() {
            return (double) cpuNanos / messages;
        }

        double wallPerMessage() {
            return (double) wallNanos / messages;
        }

        double bytesPerMessage() {
            return (double) allocatedBytes / messages;
        }
    }

    /** One pass over the mix on one path. */
    @FunctionalInterface
    private interface Pass {
        void run() throws KmtfRejection;
    }

    private final com.sun.management.ThreadMXBean thread =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        // bench's generator (RELIABLE types, seed 7) at a fixed size, or the demo's (every type, seed 42).
        KmtfLoadGenerator generator = new KmtfLoadGenerator(catalogue, "NODEA", size, size > 0, size > 0 ? 7 : 42);
        List<OutboxMessage> mix = new ArrayList<>(messages);
        List<Envelope> envelopes = new ArrayList<>(messages);
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        for (int i = 0; i < messages; i++) {
            OutboxMessage message = generator.next();
            mix.add(message);
            envelopes.add(new Envelope("bench-" + i, NodeId.of("node-a"), message.kmtfType(),
                    catalogue.require(message.kmtfType()).defaultPrecedence(), "UNCLASSIFIED", createdAt,
                    message.body()));
        }
        KmtfValidator validator = new KmtfValidator(catalogue);
        InboundValidator inbound = new InboundValidator(validator);

        long bodyBytes = mix.stream().mapToLong(m -> m.body().length).sum();
        out.printf(Locale.ROOT, "KMTF validation per message: %d messages of %s (%.0f bytes on average, %d types), "
                + "%d s warm-up, %d rounds of %d s per path; %s; load average %s; %s%n", mix.size(),
                size > 0 ? "bench's mix" : "the demo's mix", (double) bodyBytes / mix.size(),
                mix.stream().map(OutboxMessage::kmtfType).distinct().count(), warmup, rounds, seconds,
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                LoadAverage.read().map(Object::toString).orElse("unknown"), Runtime.version());
        out.println();
        out.println("| path | CPU ns/msg, median (min-max) | msg per CPU-s | wall ns/msg, median | "
                + "bytes allocated/msg, median (min-max) |");
        out.println("|---|---:|---:|---:|---:|");
        out.flush();
        measure(out, "outbox: KmtfValidator.validate", () -> {
            for (OutboxMessage message : mix) {
                validator.validate(message.body(), message.kmtfType());
            }
        });
        measure(out, "receive: InboundValidator.check", () -> {
            for (Envelope envelope : envelopes) {
                Optional<InboundValidator.Rejection> rejection = inbound.check(envelope);
                if (rejection.isPresent()) {
                    throw new IllegalStateException("a message of the mix was refused: " + rejection.get());
                }
            }
        });
        out.printf(Locale.ROOT, "%nload average at the end %s%n",
                LoadAverage.read().map(Object::toString).orElse("unknown"));
        return ExitCode.OK.code();
    }

    private void measure(PrintWriter out, String path, Pass pass) throws KmtfRejection {
        long warmupEnd = System.nanoTime() + warmup * 1_000_000_000L;
        while (System.nanoTime() < warmupEnd) {
            pass.run();
        }
        List<Round> measured = new ArrayList<>(rounds);
        for (int r = 0; r < rounds; r++) {
            long checked = 0;
            long wallStarted = System.nanoTime();
            long cpuStarted = thread.getCurrentThreadCpuTime();
            long allocatedBefore = thread.getCurrentThreadAllocatedBytes();
            long roundEnd = wallStarted + seconds * 1_000_000_000L;
            do {
                pass.run();
                checked += messages;
            } while (System.nanoTime() < roundEnd);
            measured.add(new Round(checked, thread.getCurrentThreadCpuTime() - cpuStarted,
                    System.nanoTime() - wallStarted, thread.getCurrentThreadAllocatedBytes() - allocatedBefore));
        }
        String inOrder = measured.stream().map(round -> String.format(Locale.ROOT, "%.0f", round.cpuPerMessage()))
                .collect(Collectors.joining(", "));
        double[] cpu = measured.stream().mapToDouble(Round::cpuPerMessage).sorted().toArray();
        double[] wall = measured.stream().mapToDouble(Round::wallPerMessage).sorted().toArray();
        double[] bytes = measured.stream().mapToDouble(Round::bytesPerMessage).sorted().toArray();
        out.printf(Locale.ROOT, "| %s | %.0f (%.0f-%.0f) | %,.0f | %.0f | %.0f (%.0f-%.0f) |%n", path, median(cpu),
                cpu[0], cpu[cpu.length - 1], 1e9 / median(cpu), median(wall), median(bytes), bytes[0],
                bytes[bytes.length - 1]);
        out.printf("  CPU ns/msg of each round in turn: %s%n", inOrder);
        out.flush();
    }

    private static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

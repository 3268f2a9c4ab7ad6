package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What Linux tells of a process, or of a group of processes summed: resident memory, proportional memory, threads and
 * open file descriptors, from {@code /proc/<pid>/status}, {@code smaps_rollup} and {@code fd}. A figure that cannot be
 * read (a process that ended while being read, a kernel without {@code smaps_rollup}) is NaN.
 *
 * @param rssKb {@code VmRSS}: what the process has resident, pages it shares with others included
 * @param pssKb {@code Pss}: its share of what is resident, each shared page divided among its sharers, so that a
 *        group's sum counts every page once
 * @param anonymousKb {@code Pss_Anon}: of that, its private memory (what it allocated, where a leak shows)
 * @param sharedMemoryKb {@code Pss_Shmem}: of that, shared memory (PostgreSQL's shared buffers, bounded by their size)
 * @param threads {@code Threads}: every thread, native ones included
 * @param openFiles entries of {@code fd}
 * @param processes how many processes were read
 */
record ProcessFigures(double rssKb, double pssKb, double anonymousKb, double sharedMemoryKb, double threads,
        double openFiles, int processes) {

    private static final Path PROC = Path.of("/proc");

    /** The process's figures; empty when it is gone (or this is not Linux). */
    static Optional<ProcessFigures> of(ProcessHandle process) {
        Path dir = PROC.resolve(Long.toString(process.pid()));
        List<String> status;
        try {
            status = Files.readAllLines(dir.resolve("status"));
        }
        catch (IOException ex) {
            return Optional.empty();
        }
        List<String> rollup = lines(dir.resolve("smaps_rollup"));
        return Optional.of(new ProcessFigures(field(status, "VmRSS:"), field(rollup, "Pss:"),
                field(rollup, "Pss_Anon:"), field(rollup, "Pss_Shmem:"), field(status, "Threads:"),
                entries(dir.resolve("fd")), 1));
    }

    /**
     * A process and all its descendants summed, e.g. a PostgreSQL postmaster and its backends; a backend that ended
     * meanwhile is left out. Empty when the root is gone.
     */
    static Optional<ProcessFigures> ofTree(ProcessHandle root) {
        return Stream.concat(Stream.of(root), root.descendants()).map(ProcessFigures::of).flatMap(Optional::stream)
                .reduce(ProcessFigures::plus).filter(sum -> root.isAlive());
    }

    ProcessFigures plus(ProcessFigures other) {
        return new ProcessFigures(rssKb + other.rssKb, pssKb + other.pssKb, anonymousKb + other.anonymousKb,
                sharedMemoryKb + other.sharedMemoryKb, threads + other.threads, openFiles + other.openFiles,
                processes + other.processes);
    }

    /** A {@code Name: value [kB]} line's value. */
    private static double field(List<String> lines, String name) {
        return lines.stream().filter(line -> line.startsWith(name)).findFirst()
                .map(line -> Double.parseDouble(line.substring(name.length()).replace("kB", "").strip()))
                .orElse(Double.NaN);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        }
        catch (IOException ex) {
            return List.of();
        }
    }

    private static double entries(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.count();
        }
        catch (IOException | RuntimeException ex) {
            return Double.NaN;
        }
    }
}

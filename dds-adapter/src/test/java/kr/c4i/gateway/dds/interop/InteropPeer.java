package kr.c4i.gateway.dds.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The native peers of the interop tests, built once per JVM into {@code target/interop/<pid>/} from the sources in
 * {@code src/test/interop/} and the project's IDL. A missing tool fails the build (and so every test of that peer)
 * with the Debian package to install; {@code .ci/run} installs them all.
 */
enum InteropPeer {

    /** Eclipse Cyclone DDS 0.10 C API, type support from {@code idlc}, built with gcc. */
    CYCLONE_C("cyclone-c", "Cyclone DDS C peer") {
        @Override
        Path build(Path out) throws Exception {
            require("idlc", "cyclonedds-tools");
            require("gcc", "gcc");
            requireFile(Path.of("/usr/include/dds/dds.h"), "cyclonedds-dev");
            Path gen = Files.createDirectories(out.resolve("gen"));
            // Default idlc output, type information (XTypes) included, as a C application would have it.
            run(out, "idlc", "-o", gen.toString(), IDL.toString());
            Path exe = out.resolve("kmtf_peer");
            run(out, "gcc", "-std=c11", "-O2", "-Wall", "-I", gen.toString(), "-o", exe.toString(),
                    SOURCES.resolve("cyclone/kmtf_peer.c").toString(), gen.resolve("kmtf.c").toString(), "-lddsc");
            return exe;
        }

        @Override
        Map<String, String> environment() {
            return Map.of("CYCLONEDDS_URI", SOURCES.resolve("cyclonedds-loopback.xml").toUri().toString());
        }
    },

    /** eProsima Fast DDS 2.9 C++ API, type support from {@code fastddsgen}, built with g++. */
    FAST_DDS_CPP("fastdds-cpp", "Fast DDS C++ peer") {
        @Override
        Path build(Path out) throws Exception {
            require("fastddsgen", "fastddsgen");
            require("g++", "g++");
            requireFile(Path.of("/usr/include/fastdds/dds/domain/DomainParticipantFactory.hpp"), "libfastrtps-dev");
            requireFile(Path.of("/usr/include/fastcdr/Cdr.h"), "libfastcdr-dev");
            Path gen = Files.createDirectories(out.resolve("gen"));
            // Debian's fastddsgen is a jar started with $JAVA_HOME/bin/java (or java on PATH) and depends on no
            // Java package: give it the JVM running this test.
            run(out, Map.of("JAVA_HOME", System.getProperty("java.home")), "fastddsgen", "-replace", "-d",
                    gen.toString(), IDL.toString());
            for (String generated : List.of("kmtf.h", "kmtf.cxx", "kmtfPubSubTypes.h", "kmtfPubSubTypes.cxx")) {
                if (!Files.isRegularFile(gen.resolve(generated))) {
                    throw new AssertionError("fastddsgen did not generate " + gen.resolve(generated));
                }
            }
            Path exe = out.resolve("kmtf_peer");
            run(out, "g++", "-std=c++17", "-O1", "-Wall", "-I", gen.toString(), "-o", exe.toString(),
                    SOURCES.resolve("fastdds/kmtf_peer.cpp").toString(), gen.resolve("kmtf.cxx").toString(),
                    gen.resolve("kmtfPubSubTypes.cxx").toString(), "-lfastrtps", "-lfastcdr");
            return exe;
        }

        @Override
        Map<String, String> environment() {
            return Map.of("FASTRTPS_DEFAULT_PROFILES_FILE", SOURCES.resolve("fastdds-loopback.xml").toString());
        }
    };

    static final Path MODULE = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    static final Path IDL = MODULE.resolve("src/main/idl/kmtf.idl");
    static final Path SOURCES = MODULE.resolve("src/test/interop");
    /**
     * One build directory per JVM, so concurrent builds of the module (other checkouts' test runs share this
     * machine, not this directory, but two runs in one checkout do) never overwrite a peer another one is running.
     */
    static final Path TARGET = MODULE.resolve("target/interop/" + ProcessHandle.current().pid());

    private final String origin;
    private final String description;
    private Path executable;
    private String failure;

    InteropPeer(String origin, String description) {
        this.origin = origin;
        this.description = description;
    }

    /** The origin (and message id prefix) this peer writes, and its build directory name. */
    String origin() {
        return this.origin;
    }

    @Override
    public String toString() {
        return this.description;
    }

    abstract Path build(Path out) throws Exception;

    abstract Map<String, String> environment();

    /**
     * The peer's executable, built on first use; a failed build fails every later call with the same message
     * without retrying.
     */
    synchronized Path executable() {
        if (this.failure != null) {
            throw new AssertionError(this.failure);
        }
        if (this.executable == null) {
            long start = System.nanoTime();
            try {
                deleteBuildsOfEndedProcesses();
                Path out = Files.createDirectories(TARGET.resolve(this.origin));
                this.executable = build(out);
                System.out.printf("interop: built the %s in %d ms%n", this.description,
                        (System.nanoTime() - start) / 1_000_000);
            }
            catch (Throwable ex) {
                this.failure = "Unable to build the " + this.description + " from " + SOURCES + ": "
                        + ex.getMessage();
                throw new AssertionError(this.failure, ex);
            }
        }
        return this.executable;
    }

    private static void deleteBuildsOfEndedProcesses() throws IOException {
        Path parent = TARGET.getParent();
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (Stream<Path> builds = Files.list(parent)) {
            for (Path build : builds.toList()) {
                String name = build.getFileName().toString();
                if (name.matches("[0-9]+") && ProcessHandle.of(Long.parseLong(name)).isEmpty()) {
                    try (Stream<Path> files = Files.walk(build)) {
                        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(file);
                        }
                    }
                }
            }
        }
    }

    private static void require(String program, String debianPackage) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                    return;
                }
            }
        }
        throw new AssertionError(program + " not found on PATH; install the Debian package " + debianPackage
                + " (.ci/run does)");
    }

    private static void requireFile(Path file, String debianPackage) {
        if (!Files.isRegularFile(file)) {
            throw new AssertionError(file + " not found; install the Debian package " + debianPackage
                    + " (.ci/run does)");
        }
    }

    private static void run(Path dir, String... command) throws IOException, InterruptedException {
        run(dir, Map.of(), command);
    }

    private static void run(Path dir, Map<String, String> environment, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        // Read on another thread so a hanging tool cannot block past the timeout.
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            catch (IOException ex) {
                output.append("(output unreadable: ").append(ex).append(')');
            }
        });
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
        }
        reader.join(5_000);
        if (process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed with exit code " + process.exitValue()
                    + ":\n" + output);
        }
        List<String> warnings = new ArrayList<>(output.toString().lines().filter(l -> l.contains("warning")).toList());
        if (!warnings.isEmpty()) {
            System.out.println("interop: " + command[0] + " warnings: " + warnings);
        }
    }
}

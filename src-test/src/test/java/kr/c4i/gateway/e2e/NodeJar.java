package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.springframework.util.FileSystemUtils;

/**
 * An executable jar in the form node processes start from: extracted once per test JVM (Spring Boot's tools mode), so
 * the JVM loads plain jars from its class path, and with an ahead-of-time cache (JEP 483 and 514) left by the first
 * process of the jar that ends by itself or by SIGTERM. The processes after it start with their classes already
 * loaded and linked. A case starts up to eight of them at once on a two-core machine, and their start, not the
 * messages, is most of its time. A process killed while it trains leaves no cache, and the next start trains again.
 */
final class NodeJar {

    private static final Map<Path, NodeJar> EXTRACTED = new ConcurrentHashMap<>();

    private final Path jar;
    private final Path cache;
    private int trainings;
    /** The cache the running training process writes at its exit, while one runs. */
    private @Nullable Path training;

    private NodeJar(Path jar, Path cache) {
        this.jar = jar;
        this.cache = cache;
    }

    /** The extracted form of an executable jar, made at its first use in this JVM from the jar as built. */
    static NodeJar of(Path executableJar, Path java) {
        return EXTRACTED.computeIfAbsent(executableJar.toAbsolutePath(), built -> extract(built, java));
    }

    private static NodeJar extract(Path built, Path java) {
        String name = built.getFileName().toString().replaceFirst("\\.jar$", "");
        // The cache of an earlier build would not fit this one's jars: the whole directory goes.
        Path home = Path.of("target", "node-jars", "fork-" + System.getProperty("e2e.fork", "1"), name)
                .toAbsolutePath();
        Path into = home.resolve("jar");
        try {
            FileSystemUtils.deleteRecursively(home);
            Files.createDirectories(home);
            Process extract = new ProcessBuilder(java.toString(), "-Djarmode=tools", "-jar", built.toString(),
                    "extract", "--destination", into.toString()).redirectErrorStream(true).start();
            String output = new String(extract.getInputStream().readAllBytes());
            if (!extract.waitFor(2, TimeUnit.MINUTES) || extract.exitValue() != 0) {
                throw new IllegalStateException("Extracting " + built + " failed: " + output.strip());
            }
            return new NodeJar(into.resolve(built.getFileName()), home.resolve(name + ".aot"));
        }
        catch (IOException ex) {
            throw new IllegalStateException("Extracting " + built + " failed: " + ex, ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while extracting " + built, ex);
        }
    }

    /**
     * The JVM options and jar of one process's start: the cache once there is one; else, if no other process of this
     * jar is training, a training run that writes a cache at its exit.
     */
    synchronized Start start() {
        if (Files.isRegularFile(cache)) {
            return new Start(List.of("-XX:AOTCache=" + cache, "-jar", jar.toString()), null);
        }
        if (training != null) {
            return new Start(List.of("-jar", jar.toString()), null);
        }
        training = cache.resolveSibling(cache.getFileName() + ".training-" + ++trainings);
        // Its log quiet of the classes the cache leaves out, which are many and all harmless.
        return new Start(List.of("-XX:AOTCacheOutput=" + training, "-Xlog:aot*=error", "-jar", jar.toString()),
                training);
    }

    /**
     * A training process ended; its cache is complete once it has exited by itself or by SIGTERM (the JVM writes the
     * cache before it exits), and not after SIGKILL or a crash, which may have cut the writing short.
     */
    synchronized void trained(Path output, int exitValue) {
        if (!output.equals(training)) {
            return;
        }
        training = null;
        try {
            if ((exitValue < 128 || exitValue == 128 + 15) && Files.isRegularFile(output)) {
                Files.move(output, cache, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        catch (IOException ex) {
            System.err.println("The AOT cache " + output + " could not become " + cache + ": " + ex);
        }
    }

    /** How one process starts, and the cache it writes if it trains. */
    record Start(List<String> arguments, @Nullable Path training) {
    }
}

package kr.c4i.gateway.jms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * TLS contexts kept by what they are made from, and made again only when one of their files changes. Artemis asks
 * for a context on every connection attempt, and making one decrypts both PKCS #12 stores (thousands of HMAC rounds
 * each): a bridge retrying an absent peer every few seconds kept a fifth of a core busy on an idle stack
 * (docs/benchmarks.md, "the compose stack at idle"). A store or password file replaced on disk, as a renewed
 * certificate is, gives the next connection a new context.
 */
final class TlsContextCache {

    private record FileStamp(Path path, @Nullable FileTime modified, long size, @Nullable Object fileKey) {

        static FileStamp of(Path path) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                return new FileStamp(path, attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
            }
            catch (IOException ex) {
                // Absent or unreadable: making the context reports why; a file that appears later differs from this.
                return new FileStamp(path, null, -1, null);
            }
        }
    }

    private record Made(List<FileStamp> stamps, SSLContext context) {
    }

    private final ConcurrentMap<Object, Made> made = new ConcurrentHashMap<>();

    /**
     * The context last made for {@code key} if none of {@code files} has changed since; otherwise one made now.
     *
     * @param files the files the context is read from (stores and password files); {@code null}s are skipped
     */
    SSLContext get(Object key, List<@Nullable Path> files, Callable<SSLContext> make) throws Exception {
        List<FileStamp> stamps = new ArrayList<>(files.size());
        for (Path file : files) {
            if (file != null) {
                stamps.add(FileStamp.of(file));
            }
        }
        Made current = this.made.get(key);
        if (current != null && current.stamps().equals(stamps)) {
            return current.context();
        }
        SSLContext context = Objects.requireNonNull(make.call(), "made no TLS context");
        this.made.put(key, new Made(List.copyOf(stamps), context));
        return context;
    }

    void clear() {
        this.made.clear();
    }
}

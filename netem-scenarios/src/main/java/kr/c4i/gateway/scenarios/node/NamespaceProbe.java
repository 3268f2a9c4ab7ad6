package kr.c4i.gateway.scenarios.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Watches a namespace from the root namespace, without starting any process: {@code /proc/<pid>/net/*} of a
 * process in a namespace shows that namespace's network. Used while a recovered node rejoins, to time the first
 * frame that reaches it and the moment a peer's TCP connection to it is established.
 */
public final class NamespaceProbe implements AutoCloseable {

    private static final Duration PERIOD = Duration.ofMillis(2);

    private final long pid;
    private final String device;
    private final int localPort;
    private final String remoteAddress;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile @Nullable Instant firstFrame;
    private volatile @Nullable Instant established;

    /**
     * Starts watching now.
     *
     * @param pid a process in the namespace
     * @param device the namespace's interface whose received frames count
     * @param localPort the port a peer connects to (the JMS broker's); 0 to watch frames only
     * @param remoteAddress the peer's address
     */
    public NamespaceProbe(long pid, String device, int localPort, String remoteAddress) {
        this.pid = pid;
        this.device = device;
        this.localPort = localPort;
        this.remoteAddress = remoteAddress;
        long baseline = rxPackets();
        this.thread = Thread.ofPlatform().daemon().name("probe-" + pid).start(() -> watch(baseline));
    }

    /** When the first frame after the start reached the interface, if one did. */
    public @Nullable Instant firstFrame() {
        return firstFrame;
    }

    /** When a TCP connection from the peer to the local port was first seen established, if it was. */
    public @Nullable Instant established() {
        return established;
    }

    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(1000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private void watch(long baseline) {
        while (running.get() && (firstFrame == null || (localPort > 0 && established == null))) {
            Instant now = Instant.now();
            if (firstFrame == null && rxPackets() > baseline) {
                firstFrame = now;
            }
            if (localPort > 0 && established == null && read("tcp") instanceof String tcp
                    && hasEstablished(tcp, localPort, remoteAddress)) {
                established = now;
            }
            LockSupport.parkNanos(PERIOD.toNanos());
        }
    }

    private long rxPackets() {
        String dev = read("dev");
        return dev == null ? -1 : rxPackets(dev, device);
    }

    private @Nullable String read(String file) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "net", file));
        }
        catch (IOException ex) {
            return null;
        }
    }

    /** Received packets of a device in {@code /proc/net/dev} text; -1 when absent. */
    static long rxPackets(String procNetDev, String device) {
        for (String line : procNetDev.lines().toList()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals(device)) {
                String[] f = line.substring(colon + 1).strip().split("\\s+");
                return Long.parseLong(f[1]);
            }
        }
        return -1;
    }

    /** Whether {@code /proc/net/tcp} text has an ESTABLISHED connection from {@code remote} to the local port. */
    static boolean hasEstablished(String procNetTcp, int localPort, String remote) {
        String remoteHex = hexAddress(remote);
        for (String line : procNetTcp.lines().skip(1).toList()) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 4) {
                continue;
            }
            String[] local = f[1].split(":");
            String[] peer = f[2].split(":");
            if (f[3].equals("01") && Integer.parseInt(local[1], 16) == localPort && peer[0].equalsIgnoreCase(remoteHex)) {
                return true;
            }
        }
        return false;
    }

    /** An IPv4 address as {@code /proc/net/tcp} prints it (little-endian hex). */
    static String hexAddress(String ipv4) {
        String[] o = ipv4.split("\\.");
        return String.format("%02X%02X%02X%02X", Integer.parseInt(o[3]), Integer.parseInt(o[2]),
                Integer.parseInt(o[1]), Integer.parseInt(o[0]));
    }
}

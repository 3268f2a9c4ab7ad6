package kr.c4i.gateway.ports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the brokers, links and servers the tools and tests start on loopback, free when chosen and bound later.
 * They are chosen below the kernel's ephemeral range: a port from that range can meanwhile become the local end of
 * one of the many connections those processes open (JDBC, bridges, HTTP) or a server's port 0, and the later bind
 * then fails. No port is handed out twice by one JVM; JVMs that run at once on one machine (Failsafe's forks) each
 * draw from a band of the range of their own ({@value #BAND} of {@value #BANDS}), or they could hand out the same port
 * and the second process to bind it fails. The range starts above the host ports docker-compose.yml publishes
 * (18081-18092), since bin/test runs the compose stack beside the other modules' tests.
 */
public final class LoopbackPorts {

    /** This JVM's band, from 1; with {@link #BANDS}, e.g. a Failsafe fork's number. Unset: the whole range. */
    static final String BAND = "loopback-ports.band";
    /** How many bands the range is cut into. */
    static final String BANDS = "loopback-ports.bands";

    private static final int LOWEST = 20_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final int[] RANGE = band(System.getProperty(BAND), System.getProperty(BANDS), LOWEST,
            ephemeralStart());

    private LoopbackPorts() {
    }

    public static int freeTcp() {
        return choose(true);
    }

    public static int freeUdp() {
        return choose(false);
    }

    private static int choose(boolean tcp) {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(RANGE[0], RANGE[1]);
            if ((tcp ? tcpFree(port) : udpFree(port)) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No free " + (tcp ? "TCP" : "UDP") + " port on loopback in " + RANGE[0] + ".."
                + RANGE[1] + " after 1,000 attempts");
    }

    /**
     * The ports {@code [from, to)} of band {@code band} of {@code bands} equal parts of {@code [lowest, below)}; the
     * whole of it when neither is set.
     */
    static int[] band(String band, String bands, int lowest, int below) {
        if (band == null && bands == null) {
            return new int[] {lowest, below};
        }
        int k = parsed(band);
        int n = parsed(bands);
        int width = n < 1 ? 0 : (below - lowest) / n;
        if (k < 1 || k > n || width < 100) {
            throw new IllegalStateException(BAND + " is '" + band + "' and " + BANDS + " '" + bands + "': give both, "
                    + "a band from 1 to the count, each band at least 100 of the ports " + lowest + ".." + below);
        }
        return new int[] {lowest + (k - 1) * width, lowest + k * width};
    }

    /** The number {@code value} holds; 0, which no band or count is, when it is unset or holds none. */
    private static int parsed(String value) {
        try {
            return value == null ? 0 : Integer.parseInt(value.strip());
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }

    private static boolean tcpFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    private static boolean udpFree(int port) {
        try (DatagramSocket socket = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    /** The first port of the kernel's ephemeral range (Linux: ip_local_port_range), 32768 if it cannot be read. */
    private static int ephemeralStart() {
        try {
            // Not Files.readString: /proc reports size 0, so it reads one byte first, and the kernel ends a sysctl
            // file read at any later offset: it saw "3" of "32768", and every port came from 10000..10999.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).getFirst().strip();
            return Math.max(LOWEST + 1_000, Integer.parseInt(range.split("\\s+")[0]));
        }
        catch (IOException | RuntimeException ex) {
            return 32_768;
        }
    }
}

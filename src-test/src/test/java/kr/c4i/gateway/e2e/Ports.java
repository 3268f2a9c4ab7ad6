package kr.c4i.gateway.e2e;

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
 * Ports for the processes a test starts, free on loopback when chosen and bound later by those processes. They are
 * chosen below the kernel's ephemeral range: a port from that range can meanwhile become the local end of one of the
 * many connections the test's processes open (JDBC, bridges, HTTP), and the later bind then fails. No port is handed
 * out twice by one test JVM.
 */
final class Ports {

    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final int BELOW = ephemeralStart();

    private Ports() {
    }

    static int freeTcp() {
        return choose(true);
    }

    static int freeUdp() {
        return choose(false);
    }

    private static int choose(boolean tcp) {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, BELOW);
            if ((tcp ? tcpFree(port) : udpFree(port)) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No free " + (tcp ? "TCP" : "UDP") + " port on loopback in " + LOWEST + ".."
                + BELOW + " after 1,000 attempts");
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
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
            return Math.max(LOWEST + 1_000, Integer.parseInt(range.split("\\s+")[0]));
        }
        catch (IOException | RuntimeException ex) {
            return 32_768;
        }
    }
}

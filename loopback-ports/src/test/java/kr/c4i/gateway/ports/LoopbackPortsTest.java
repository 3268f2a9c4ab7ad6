package kr.c4i.gateway.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void portsAreBelowTheEphemeralRangeAndNeverHandedOutTwice() throws IOException {
        int ephemeralStart = Files.isReadable(RANGE)
                ? Integer.parseInt(Files.readAllLines(RANGE).getFirst().strip().split("\\s+")[0])
                : 32_768;
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ports.add(LoopbackPorts.freeTcp());
            ports.add(LoopbackPorts.freeUdp());
        }
        assertThat(ports).doesNotHaveDuplicates().allSatisfy(
                port -> assertThat(port).isGreaterThanOrEqualTo(20_000).isLessThan(ephemeralStart));
        // Over the whole range, not a corner of it: 200 ports all in the lower half would happen once in 2^200.
        assertThat(ports).anyMatch(port -> port >= (20_000 + ephemeralStart) / 2);
    }

    @Test
    void aTcpPortCanBeBoundOnLoopback() throws IOException {
        int port = LoopbackPorts.freeTcp();
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void aUdpPortCanBeBoundOnLoopback() throws IOException {
        int port = LoopbackPorts.freeUdp();
        try (DatagramSocket socket = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void forksThatRunAtOnceDrawFromBandsThatDoNotOverlap() {
        assertThat(LoopbackPorts.band(null, null, 10_000, 32_768)).containsExactly(10_000, 32_768);
        int[] first = LoopbackPorts.band("1", "2", 10_000, 32_768);
        int[] second = LoopbackPorts.band(" 2 ", "2", 10_000, 32_768);
        assertThat(first).containsExactly(10_000, 21_384);
        assertThat(second).containsExactly(21_384, 32_768);
    }

    @Test
    void aBandThatIsNotOneOfTheCountIsRefusedInOneLine() {
        for (String[] bad : new String[][] {{"3", "2"}, {"0", "2"}, {"1", null}, {null, "2"}, {"x", "2"},
                {"1", "1000"}}) {
            assertThatThrownBy(() -> LoopbackPorts.band(bad[0], bad[1], 10_000, 32_768))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(LoopbackPorts.BAND).hasMessageNotContaining("\n");
        }
    }
}

package kr.c4i.gateway.scenarios.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

class NodeInternalsTest {

    private static final String PROC_NET_TCP = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0200000A:F0D0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1
               1: 0200000A:F0D0 0100000A:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1
               2: 0100007F:8E3F 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 3 1
            """.replace("0200000A", NamespaceProbe.hexAddress("10.77.0.2"))
            .replace("0100000A", NamespaceProbe.hexAddress("10.77.0.1"))
            .replace("F0D0", Integer.toHexString(61616).toUpperCase());

    @Test
    void procNetTcpPrintsAddressesLittleEndian() {
        assertThat(NamespaceProbe.hexAddress("10.77.0.1")).isEqualTo("01004D0A");
    }

    @Test
    void anEstablishedConnectionFromThePeerToTheBrokerPortIsFound() {
        assertThat(NamespaceProbe.hasEstablished(PROC_NET_TCP, 61616, "10.77.0.1")).isTrue();
        assertThat(NamespaceProbe.hasEstablished(PROC_NET_TCP, 61616, "10.77.0.3")).isFalse();
        assertThat(NamespaceProbe.hasEstablished(PROC_NET_TCP, 8080, "10.77.0.1")).isFalse();
    }

    @Test
    void receivedPacketsOfOneInterfaceAreRead() {
        String dev = """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets
                    lo:    1000      10    0    0    0     0          0         0     1000      10
                  eth0:   52311     417    0    0    0     0          0        12    98811     512
                """;
        assertThat(NamespaceProbe.rxPackets(dev, "eth0")).isEqualTo(417);
        assertThat(NamespaceProbe.rxPackets(dev, "eth1")).isEqualTo(-1);
    }

    @Test
    void theReadyLineGivesTheDatabasePort() {
        Matcher m = GatewayNode.READY.matcher(
                "READY node=n2 http=8080 jdbc=jdbc:postgresql://localhost:41839/postgres?user=postgres");
        assertThat(m.matches()).isTrue();
        assertThat(m.group(3)).isEqualTo("41839");
    }

    @Test
    void consoleLinesAreTimedByTheirOwnTimestamp() {
        Instant fallback = Instant.EPOCH;
        assertThat(GatewayNode.logTime("2026-11-21T14:22:08.896Z  INFO 1 --- [x] y : AMQ221027", fallback))
                .isEqualTo(Instant.parse("2026-11-21T14:22:08.896Z"));
        assertThat(GatewayNode.logTime("	at something", fallback)).isEqualTo(fallback);
    }

    @Test
    void theDatabaseIsReachedThroughItsUnixSocket() {
        assertThat(InterfaceDatabase.url(Path.of("/w/sockets/n1"), 41839)).startsWith(
                "jdbc:postgresql://localhost:41839/postgres?socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
                        + "&socketFactoryArg=/w/sockets/n1/.s.PGSQL.41839");
    }
}

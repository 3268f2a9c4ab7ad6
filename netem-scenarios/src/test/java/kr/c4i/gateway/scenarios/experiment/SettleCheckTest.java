package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.scenarios.net.PortCounters;

class SettleCheckTest {

    /** A DDS node's {@code /actuator/health/transport} while its writers miss readers (as the recovered node 2's). */
    private static final String DDS_UNMATCHED = """
            {"status":"UP","details":{"kind":"dds","node":"n2","domainId":0,"state":"open","binding":"cyclonedds",
            "participantAlive":true,"receiveThreadAlive":true,"topics":270,"readers":4,"matchedReaders":3,
            "samplesWritten":0,"samplesReceived":212,"samplesLost":0,"samplesInvalid":0,
            "samplesDropped":{"unmatched":0,"lost":0,"rejected":0},
            "unmatchedRoutes":{"AIRSITREP":"0 of 2 readers","MARSITREP":"1 of 4 readers"}}}
            """;

    private static final String DDS_MATCHED = """
            {"status":"UP","details":{"kind":"dds","node":"n1","domainId":0,"state":"open","topics":270,"readers":0,
            "matchedReaders":9,"samplesDropped":{"unmatched":0,"lost":0,"rejected":0}}}
            """;

    private static final String JMS_ONE_BRIDGE_DOWN = """
            {"status":"UP","details":{"kind":"jms","nodeId":"n1","mode":"embedded","brokerActive":true,
            "peers":{"n2":{"queue":"kmtf.n2","bridgeConnected":false,"pending":12},
                     "n3":{"queue":"kmtf.n3","bridgeConnected":true,"pending":0}}}}
            """;

    @Test
    void aDdsNodeNamesTheRoutesWhoseWriterLacksTheReadersOfItsDestinations() {
        assertThat(SettleCheck.routesDown(DDS_UNMATCHED))
                .containsExactlyInAnyOrder("AIRSITREP 0 of 2 readers", "MARSITREP 1 of 4 readers");
        assertThat(SettleCheck.routesDown(DDS_MATCHED)).isEmpty();
    }

    @Test
    void aJmsNodeNamesThePeersItsBridgeIsNotConnectedTo() {
        assertThat(SettleCheck.routesDown(JMS_ONE_BRIDGE_DOWN)).containsExactly("bridge to n2 not connected");
    }

    @Test
    void aTransportThatIsNotUpIsDownAsAWhole() {
        assertThat(SettleCheck.routesDown("""
                {"status":"DOWN","details":{"kind":"dds","state":"closed"}}
                """)).containsExactly("transport DOWN");
    }

    @Test
    void anAnswerThatIsNotTheHealthEndpointsIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> SettleCheck.routesDown("<html>login</html>"))
                .withMessageContaining("Not a health answer");
        assertThatIllegalArgumentException().isThrownBy(() -> SettleCheck.routesDown("{\"details\":{}}"))
                .withMessageContaining("no status");
    }

    @Test
    void whatAHostSentIsItsSwitchPortsReceivedBytesOverTheWindow() {
        Map<Integer, PortCounters> before = Map.of(1, new PortCounters(10_000, 10, 500, 5),
                2, new PortCounters(2_000, 3, 90_000, 80));
        Map<Integer, PortCounters> after = Map.of(1, new PortCounters(62_000, 60, 900, 9),
                2, new PortCounters(2_600, 5, 150_000, 130));

        Map<Integer, Double> rates = SettleCheck.sentPerSecond(before, after, Duration.ofSeconds(2));

        // Host 2 received 30 kB/s, but what it sent is what could crowd its link's sending side: 300 B/s.
        assertThat(rates).containsExactlyInAnyOrderEntriesOf(Map.of(1, 26_000.0, 2, 300.0));
        // A host first seen in the later reading has nothing to compare with.
        assertThat(SettleCheck.sentPerSecond(Map.of(), after, Duration.ofSeconds(2))).containsEntry(1, 0.0);
    }

    @Test
    void aLinkIsSettledQuietOrSteadyAcrossTwoWindows() {
        Map<String, List<String>> allUp = Map.of("n1", List.of(), "n2", List.of());
        double quiet = SettleCheck.QUIET_BYTES_PER_SECOND;

        // Quiet needs no window before it; anything louder does.
        assertThat(new SettleCheck(allUp, Map.of(), Map.of(1, quiet, 2, 40.0)).settled()).isTrue();
        assertThat(new SettleCheck(allUp, Map.of(), Map.of(1, quiet + 1, 2, 40.0)).settled()).isFalse();
        // A settled DDS node's announcements: the same every window.
        assertThat(new SettleCheck(allUp, Map.of(1, 11_000.0, 2, 10_800.0), Map.of(1, 10_600.0, 2, 11_200.0))
                .settled()).isTrue();
        // Discovery fading: a quarter less than the window before is not steady yet, a bit less is.
        assertThat(new SettleCheck(allUp, Map.of(1, 40_000.0, 2, 11_000.0), Map.of(1, 29_999.0, 2, 11_000.0))
                .linksSteady()).isFalse();
        assertThat(new SettleCheck(allUp, Map.of(1, 40_000.0, 2, 11_000.0), Map.of(1, 30_000.0, 2, 11_000.0))
                .linksSteady()).isTrue();
        // And a burst starting.
        assertThat(new SettleCheck(allUp, Map.of(1, 11_000.0), Map.of(1, 38_000.0)).linksSteady()).isFalse();
    }

    @Test
    void routesDownKeepALinkThatIsSteadyUnsettled() {
        SettleCheck check = new SettleCheck(Map.of("n1", List.of(), "n2", List.of("LOGSITREP 0 of 1 readers")),
                Map.of(), Map.of(1, 0.0, 2, 0.0));

        assertThat(check.linksSteady()).isTrue();
        assertThat(check.routesUp()).isFalse();
        assertThat(check.settled()).isFalse();
    }

    @Test
    void whatDidNotSettleNamesTheNodesRoutesAndTheHostsStillChanging() {
        SettleCheck check = new SettleCheck(
                Map.of("n1", List.of(), "n2", List.of("LOGSITREP 0 of 1 readers", "SITREP 0 of 1 readers")),
                Map.of(1, 104_052.7, 2, 11_000.0), Map.of(1, 38_743.4, 2, 11_000.0, 3, 26_123.4));

        assertThat(check.unsettled()).isEqualTo("n2: LOGSITREP 0 of 1 readers, SITREP 0 of 1 readers; "
                + "host 1 sending 38,743 B/s after 104,053, host 3 sending 26,123 B/s after nothing measured "
                + "(a link is settled at 2,000 B/s or less, or within 25% of the window before)");
        assertThat(check.loudest()).isEqualTo(38_743.4);
    }

    @Test
    void aDdsWindowSpansTheNodesAnnouncementInterval() {
        assertThat(SettleCheck.window(TransportKind.DDS, Map.of())).isEqualTo(Duration.ofSeconds(8));
        assertThat(SettleCheck.window(TransportKind.DDS, Map.of("gateway.dds.announce-interval", "500ms")))
                .isEqualTo(Duration.ofMillis(500));
        assertThat(SettleCheck.window(TransportKind.DDS, Map.of("gateway.dds.announce-interval", " 2s")))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(SettleCheck.window(TransportKind.JMS, Map.of("gateway.dds.announce-interval", "2s")))
                .isEqualTo(SettleCheck.JMS_WINDOW);
        assertThatIllegalArgumentException().isThrownBy(
                () -> SettleCheck.window(TransportKind.DDS, Map.of("gateway.dds.announce-interval", "PT2S")))
                .withMessageContaining("gateway.dds.announce-interval=PT2S").withMessageContaining("500ms or 2s");
    }
}

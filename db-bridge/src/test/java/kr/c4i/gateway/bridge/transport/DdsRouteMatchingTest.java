package kr.c4i.gateway.bridge.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/** The publishing node's start (and readiness) waits for its routes' readers, a bounded time, on real Cyclone. */
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class DdsRouteMatchingTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    @Test
    void publishingWaitsForTheDestinationsReadersAndGivesUpReportingTheUnmatchedRoutes(CapturedOutput output)
            throws Exception {
        RoutingTable routing = RoutingTable.of(Map.of(B, List.of("category:intelligence")), CATALOGUE);
        Map<String, Integer> expected = DdsRouteMatching.expectedReaders(A, CATALOGUE, routing);
        assertThat(expected).isNotEmpty().allSatisfy((type, readers) -> assertThat(readers).isEqualTo(1));
        assertThat(DdsRouteMatching.expectedReaders(B, CATALOGUE, routing)).isEmpty();
        DdsTransportSettings settings = DdsTransportSettings.builder(Duration.ofSeconds(10), 4096).participant(loopback()).build();
        try (DdsTransport a = new DdsTransport(A, CATALOGUE, Set.of(), settings);
                DdsTransport b = new DdsTransport(B, CATALOGUE, routing.subscriptions(B), settings)) {
            a.open();
            DdsRouteMatching gate = new DdsRouteMatching(a, expected, Duration.ofMillis(500));
            long start = System.nanoTime();
            gate.await();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
            assertThat(output).contains("DDS routes unmatched after").contains(expected.size() + " of "
                    + expected.size() + " routed types lack readers");
            assertThat(a.health().details()).containsKey("unmatchedRoutes");

            b.open();
            b.subscribe(batch -> { });
            new DdsRouteMatching(a, expected, Duration.ofSeconds(60)).await();
            assertThat(output).contains("DDS routes matched: every reader of " + expected.size() + " routed types");
            assertThat(a.unmatchedRoutes()).isEmpty();
            assertThat(a.health().details()).doesNotContainKey("unmatchedRoutes");
        }
    }

    private static ParticipantSettings loopback() {
        return ParticipantSettings.builder().domainId(1 + (int) (ProcessHandle.current().pid() % 200))
                .networkInterface("127.0.0.1").multicast(false).peers(List.of("127.0.0.1")).build();
    }
}

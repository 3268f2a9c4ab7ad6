package kr.c4i.gateway.dds.transport;

import static kr.c4i.gateway.dds.transport.DdsTransportTest.ALPHA;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.BRAVO;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.CATALOGUE;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.reliableType;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.transport.DdsTransportSettings.HandshakeRecovery;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.pki.SiteAuthority;

/**
 * A DDS Security handshake that fails for real and the transport's recovery from it, with Cyclone's own timeout:
 * its 100 s are compiled in ({@code AUTHENTICATION_TIMEOUT} in {@code ddsi_handshake.c}) and no configuration or call
 * shortens them, so each test takes about two minutes, and the two run at once, each in a DDS domain of its own, in a
 * Failsafe execution and JVM of their own (dds-adapter's pom). Alpha here sends to bravo, a {@link DeafPeerMain} whose
 * first handshake with alpha cannot complete; once alpha's side has given up, bravo hears again, and Cyclone alone would
 * leave the two unmatched while both live. The test's resender stands in for the origin's outbox, which sends again
 * what stays unreceipted.
 */
@Timeout(300)
@Execution(ExecutionMode.CONCURRENT)
class HandshakeRecoveryIT {

    private static final AtomicInteger TESTS = new AtomicInteger();

    private static final Duration YEAR = Duration.ofDays(365);
    /** Cyclone's handshake timeout, and time for the discovery before it and the check after it. */
    private static final Duration HANDSHAKE_GIVEN_UP = Duration.ofSeconds(150);

    @TempDir
    Path dir;

    /** This JVM's domain for one test, the one 100 above it (modulo Cyclone's 200 here) for the other. */
    private final int domain = 1 + (TestNetwork.domainId() - 1 + 100 * TESTS.getAndIncrement()) % 200;

    private final List<DdsSecurityTest.Peer> peers = new ArrayList<>();

    @AfterEach
    void closePeers() throws Exception {
        for (DdsSecurityTest.Peer peer : this.peers) {
            peer.close();
        }
    }

    @Test
    void aParticipantWhoseHandshakeFailedIsRecreatedAndNothingSentMeanwhileIsLost() throws Exception {
        MessageType type = reliableType(10);
        Map<String, Outbound> unreceipted = new ConcurrentHashMap<>();
        ScheduledExecutorService outbox = Executors.newSingleThreadScheduledExecutor();
        try (DdsTransport alpha = new DdsTransport(ALPHA, CATALOGUE, Set.of(), settings(type, true))) {
            alpha.onReceipts((receiver, ids) -> ids.forEach(unreceipted::remove));
            alpha.open();
            DdsSecurityTest.Peer bravo = startDeafBravo(type);
            // While the handshake runs and after it failed, nothing matches: written, unreceipted, kept by the outbox.
            send(alpha, messages(type, "before", 5), unreceipted);
            outbox.scheduleWithFixedDelay(() -> resend(alpha, unreceipted), 2, 2, TimeUnit.SECONDS);
            awaitHandshakeGivenUp(alpha);
            bravo.send("hear");
            assertThat(alpha.stats().matchedReaders().get(type.topicName())).isZero();
            // Counted as ever; bravo's primer participant too if it left before its own handshake completed.
            assertThat(alpha.stats().participantsRefused().authenticationFailed()).isPositive();

            Awaitility.await("alpha's participant recreated and matched with bravo").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> alpha.stats().matchedReaders().get(type.topicName()) == 1);
            send(alpha, messages(type, "after", 5), unreceipted);
            Awaitility.await("every message receipted").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).until(unreceipted::isEmpty);
            bravo.await(line -> line.equals("RECEIVED 10"));

            assertThat(alpha.stats().participantsRecreated()).isEqualTo(1);
            Map<String, Object> health = alpha.health().details();
            assertThat(health).containsEntry("participantsRecreated", 1L).containsKey("lastRecreated")
                    .doesNotContainKey("failedHandshakes");
            assertThat(alpha.health().up()).isTrue();
        }
        finally {
            outbox.shutdownNow();
        }
    }

    @Test
    void withoutRecoveryThePairStaysUnmatchedThoughTheCauseIsGone() throws Exception {
        MessageType type = reliableType(10);
        try (DdsTransport alpha = new DdsTransport(ALPHA, CATALOGUE, Set.of(), settings(type, false))) {
            alpha.open();
            DdsSecurityTest.Peer bravo = startDeafBravo(type);
            awaitHandshakeGivenUp(alpha);
            bravo.send("hear");
            bravo.await(line -> line.equals("HEARING"));

            // Bravo hears alpha's announcements again and asks for a handshake, which alpha's Cyclone drops.
            Awaitility.await("alpha and bravo still unmatched").during(Duration.ofSeconds(30))
                    .atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
                    .until(() -> alpha.stats().matchedReaders().get(type.topicName()) == 0);
            assertThat(alpha.stats().participantsRecreated()).isZero();
            assertThat(alpha.health().details().get("failedHandshakes")).asString()
                    .contains("unmatched until either side restarts");
        }
    }

    private DdsTransportSettings settings(MessageType type, boolean recovery) {
        RoutingTable routing = RoutingTable.of(Map.of(ALPHA, List.of(type.id()), BRAVO, List.of(type.id())),
                CATALOGUE);
        Map<NodeId, ParticipantSettings.Security> security = DdsSecurityFiles.write(this.dir,
                SiteAuthority.create("s1", YEAR), this.domain, DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC,
                NodeGrant.forNodes(List.of(ALPHA, BRAVO), routing, CATALOGUE), YEAR);
        DdsTransportSettings base = TestNetwork.transport(this.domain).build();
        return base.toBuilder().participant(base.participant().toBuilder().security(security.get(ALPHA)).build())
                .handshakeRecovery(new HandshakeRecovery(recovery, Duration.ofSeconds(5), Duration.ofMinutes(1),
                        Duration.ZERO))
                .build();
    }

    private DdsSecurityTest.Peer startDeafBravo(MessageType type) throws IOException {
        DdsSecurityTest.Peer bravo = DdsSecurityTest.Peer.start(List.of(), DeafPeerMain.class,
                String.valueOf(this.domain), BRAVO.value(), this.dir.toString(), type.id());
        this.peers.add(bravo);
        bravo.await(line -> line.equals("READY"));
        return bravo;
    }

    private static void awaitHandshakeGivenUp(DdsTransport alpha) {
        Awaitility.await("alpha's side to give the handshake up").atMost(HANDSHAKE_GIVEN_UP)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> alpha.health().details().containsKey("failedHandshakes"));
    }

    private static List<Outbound> messages(MessageType type, String prefix, int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> new Outbound(new Envelope(prefix + "-" + i, ALPHA,
                type.id(), type.defaultPrecedence(), "UNCLASSIFIED", Instant.now(),
                ("MSGID/" + type.id() + "/" + prefix + i + "//").getBytes(StandardCharsets.UTF_8)), type,
                List.of(BRAVO))).toList();
    }

    private static void send(DdsTransport alpha, List<Outbound> batch, Map<String, Outbound> unreceipted)
            throws TransportException {
        batch.forEach(outbound -> unreceipted.put(outbound.envelope().messageId(), outbound));
        alpha.send(batch);
    }

    /** What the outbox's ledger does for a receipting transport: sends again whatever stays unreceipted. */
    private static void resend(DdsTransport alpha, Map<String, Outbound> unreceipted) {
        try {
            List<Outbound> due = List.copyOf(unreceipted.values());
            if (!due.isEmpty()) {
                alpha.send(due);
            }
        }
        catch (TransportException ex) {
            // Retryable, e.g. while the participants are swapped: the next round sends them.
        }
    }
}

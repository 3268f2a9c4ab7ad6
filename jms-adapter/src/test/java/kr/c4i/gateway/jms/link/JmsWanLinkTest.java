package kr.c4i.gateway.jms.link;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.PairRole;
import kr.c4i.gateway.ports.LoopbackPorts;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerMessagePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class JmsWanLinkTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final SiteId S1 = SiteId.of("s1");
    private static final SiteId S2 = SiteId.of("s2");

    @TempDir
    Path tempDir;

    private LinkSites sites;

    @AfterEach
    void closeSites() {
        if (this.sites != null) {
            this.sites.close();
        }
    }

    @Test
    void framesCrossBothWaysInOrderExactlyAsSentAndAreAllConfirmed() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        RecordingFrameHandler h1 = new RecordingFrameHandler();
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        JmsWanLink s1 = this.sites.open("s1", h1);
        JmsWanLink s2 = this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);
        awaitState(s2, S1, LinkState.UP);

        List<byte[]> toS2 = frames("s1>s2", 300);
        List<byte[]> toS1 = frames("s2>s1", 300);
        for (int i = 0; i < toS2.size(); i++) {
            s1.send(S2, toS2.get(i));
            s2.send(S1, toS1.get(i));
        }

        await().atMost(TIMEOUT).until(() -> h2.frames().size() >= toS2.size() && h1.frames().size() >= toS1.size());
        assertThat(h2.bytesFrom("s1")).containsExactlyElementsOf(toS2);
        assertThat(h1.bytesFrom("s2")).containsExactlyElementsOf(toS1);
        await().atMost(TIMEOUT).until(() -> s1.unacknowledgedBytes(S2) == 0 && s2.unacknowledgedBytes(S1) == 0);
        assertThat(h1.statesOf("s2")).containsExactly(LinkState.UP);

        long bytes = toS2.stream().mapToLong((frame) -> frame.length).sum();
        // The receiver counts a batch's frames once its transaction commits, after the handler has them.
        await().atMost(TIMEOUT).untilAsserted(() -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> peer = (Map<String, Object>) ((Map<String, Object>) s1.details().get("peers"))
                    .get("s2");
            assertThat(peer).containsEntry("state", "up").containsEntry("framesSent", 300L)
                    .containsEntry("bytesSent", bytes).containsEntry("framesConfirmed", 300L)
                    .containsEntry("unacknowledgedBytes", 0L).containsEntry("framesReceived", 300L)
                    .containsEntry("lastFrameSeq", 300L);
        });
        assertThat(s1.details()).containsEntry("windows", Map.of("producerWindowBytes", (int) LinkSites.BUDGET,
                "confirmationWindowBytes", (int) LinkSites.BUDGET, "consumerWindowBytes", (int) LinkSites.BUDGET));
        assertThat(s1.details().toString()).doesNotContain(LinkSites.PASSWORD);
    }

    @Test
    void sendDoesNotWaitForThePeerBrokerAndUnacknowledgedBytesCountWhatItHasNotConfirmed() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        HeldSends held = new HeldSends();
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        this.sites.open("s2", h2, (configuration) -> configuration.registerBrokerPlugin(held));
        awaitState(s1, S2, LinkState.UP);
        byte[] first = bytes("first");
        byte[] second = bytes("second frame");

        s1.send(S2, first);
        s1.send(S2, second);

        await().atMost(TIMEOUT).until(() -> held.waiting.get() == 1);
        assertThat(s1.unacknowledgedBytes(S2)).isEqualTo(first.length + second.length);
        held.release.countDown();
        await().atMost(TIMEOUT).until(() -> s1.unacknowledgedBytes(S2) == 0 && h2.frames().size() == 2);
        assertThat(h2.bytesFrom("s1")).containsExactly(first, second);
    }

    @Test
    void lostConnectionDropsUnacknowledgedBytesToZeroAndReconnects() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        RecordingFrameHandler h1 = new RecordingFrameHandler();
        JmsWanLink s1 = this.sites.open("s1", h1);
        HeldSends held = new HeldSends();
        this.sites.open("s2", new RecordingFrameHandler(), (configuration) -> configuration.registerBrokerPlugin(held));
        awaitState(s1, S2, LinkState.UP);
        s1.send(S2, bytes("never confirmed"));
        await().atMost(TIMEOUT).until(() -> held.waiting.get() == 1);
        assertThat(s1.unacknowledgedBytes(S2)).isPositive();

        // The socket is cut, as a WAN outage would; the broker itself stays up.
        held.server.getRemotingService().getConnections()
                .forEach((connection) -> connection.getTransportConnection().forceClose());

        await().atMost(TIMEOUT).until(() -> h1.statesOf("s2").contains(LinkState.DOWN));
        assertThat(s1.unacknowledgedBytes(S2)).isZero();
        held.release.countDown();
        awaitState(s1, S2, LinkState.UP);
        assertThat(h1.statesOf("s2")).containsExactly(LinkState.UP, LinkState.DOWN, LinkState.UP);
    }

    @Test
    void peerBrokerStoppedIsDownAndRefusesFramesThenUpAgainWhenItReturns() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        RecordingFrameHandler h1 = new RecordingFrameHandler();
        JmsWanLink s1 = this.sites.open("s1", h1);
        this.sites.open("s2", new RecordingFrameHandler());
        awaitState(s1, S2, LinkState.UP);

        this.sites.close("s2");

        awaitState(s1, S2, LinkState.DOWN);
        assertThat(s1.unacknowledgedBytes(S2)).isZero();
        assertThatThrownBy(() -> s1.send(S2, bytes("while down")))
                .isInstanceOf(TransportUnavailableException.class).hasMessageContaining("s2");

        RecordingFrameHandler h2 = new RecordingFrameHandler();
        this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);
        s1.send(S2, bytes("after return"));

        await().atMost(TIMEOUT).until(() -> h2.frames().size() == 1);
        assertThat(h2.bytesFrom("s1")).containsExactly(bytes("after return"));
        await().atMost(TIMEOUT).until(() -> h1.statesOf("s2").size() == 3);
        assertThat(h1.statesOf("s2")).containsExactly(LinkState.UP, LinkState.DOWN, LinkState.UP);
    }

    @Test
    void confirmedFrameWaitsInThePeersJournalThroughItsRestart() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        // Its store is down: every delivery is rolled back, so the frame stays on s2's queue.
        RecordingFrameHandler failing = RecordingFrameHandler.failing();
        this.sites.open("s2", failing);
        awaitState(s1, S2, LinkState.UP);

        s1.send(S2, bytes("custody"));
        await().atMost(TIMEOUT).until(() -> s1.unacknowledgedBytes(S2) == 0 && failing.attempts() >= 2);
        this.sites.close("s2");

        RecordingFrameHandler h2 = new RecordingFrameHandler();
        this.sites.open("s2", h2);

        await().atMost(TIMEOUT).until(() -> !h2.frames().isEmpty());
        assertThat(h2.bytesFrom("s1")).containsExactly(bytes("custody"));
        assertThat(failing.frames()).isEmpty();
    }

    @Test
    void frameTheHandlerRefusesIsOfferedAgainAndTheFramesBehindItKeepTheirOrder() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        RecordingFrameHandler h2 = RecordingFrameHandler.failingFirst(3);
        this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);
        List<byte[]> sent = frames("s1>s2", 20);

        for (byte[] frame : sent) {
            s1.send(S2, frame);
        }

        await().atMost(TIMEOUT).until(() -> h2.frames().size() >= sent.size());
        assertThat(h2.bytesFrom("s1")).containsExactlyElementsOf(sent);
        assertThat(h2.attempts()).isEqualTo(sent.size() + 3);
    }

    @Test
    void framesWaitingOnTheQueueReachTheHandlerTogetherInOrder() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);
        List<byte[]> sent = frames("s1>s2", 30);
        h2.hold();
        s1.send(S2, sent.getFirst());
        await().atMost(TIMEOUT).until(() -> h2.batches().size() == 1);

        // The receive thread is held in the handler with the first frame; the rest wait on s2's queue meanwhile.
        for (byte[] frame : sent.subList(1, sent.size())) {
            s1.send(S2, frame);
        }
        await().atMost(TIMEOUT).until(() -> s1.unacknowledgedBytes(S2) == 0);
        h2.release();

        await().atMost(TIMEOUT).until(() -> h2.frames().size() >= sent.size());
        assertThat(h2.bytesFrom("s1")).containsExactlyElementsOf(sent);
        assertThat(h2.batches()).hasSizeLessThan(sent.size()).first().isEqualTo(1);
        assertThat(h2.batches()).anySatisfy((size) -> assertThat(size).isGreaterThan(1));
    }

    @Test
    void messagesThatAreNotFramesGoToTheInvalidQueueAndTheNextFrameStillArrives() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        JmsWanLink s2 = this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);

        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(this.sites.url("s2"), LinkSites.USER,
                LinkSites.PASSWORD); Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("kmtf.wan.s2"));
            BytesMessage noSender = session.createBytesMessage();
            noSender.writeBytes(bytes("no sender"));
            noSender.setLongProperty(Frames.SEQ, 1);
            producer.send(noSender);
            BytesMessage unknownSender = session.createBytesMessage();
            unknownSender.writeBytes(bytes("unknown sender"));
            unknownSender.setStringProperty(Frames.FROM, "s9");
            unknownSender.setLongProperty(Frames.SEQ, 1);
            producer.send(unknownSender);
            producer.send(session.createTextMessage("not bytes"));

            s1.send(S2, bytes("valid"));

            await().atMost(TIMEOUT).until(() -> !h2.frames().isEmpty());
            assertThat(h2.bytesFrom("s1")).containsExactly(bytes("valid"));
            assertThat(h2.frames()).hasSize(1);
            // The receiver counts what it moved once its transaction commits, after the handler has the batch's frames.
            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(s2.details()).containsEntry("invalidMessages", 3L));

            MessageConsumer invalid = session.createConsumer(session.createQueue("kmtf.wan-invalid"));
            connection.start();
            List<String> reasons = new ArrayList<>();
            for (Message message = invalid.receive(5_000); message != null; message = invalid.receive(500)) {
                reasons.add(message.getStringProperty(Frames.INVALID_REASON));
            }
            assertThat(reasons).hasSize(3);
            assertThat(reasons.get(0)).contains("no sender site");
            assertThat(reasons.get(1)).contains("'s9'", "not a configured peer");
            assertThat(reasons.get(2)).contains("not a BytesMessage");
        }
    }

    @Test
    void refusesFramesForUnknownPeersAndLargerThanTheLargestFrame() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());

        assertThat(s1.kind()).isEqualTo("jms");
        assertThat(s1.peers()).containsExactly(S2);
        assertThatIllegalArgumentException().isThrownBy(() -> s1.send(SiteId.of("s9"), bytes("x")))
                .withMessageContaining("s9");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> s1.send(S2, new byte[s1.maxFrameBytes() + 1]))
                .withMessageContaining(String.valueOf(s1.maxFrameBytes()));
        assertThat(s1.state(S2)).isEqualTo(LinkState.CONNECTING);
    }

    /** As every link: a frame the link cannot take now is refused as such, so the gateway keeps it to send later. */
    @Test
    void refusesFramesBeforeItOpensAndOnceClosedAsUnavailable() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = new JmsWanLink(this.sites.settings("s1"));
        try {
            assertThatThrownBy(() -> s1.send(S2, bytes("x"))).isInstanceOf(TransportUnavailableException.class)
                    .hasMessage("The jms WAN link of site s1 is not open");
            assertThat(s1.state(S2)).isEqualTo(LinkState.CONNECTING);
            assertThat(s1.unacknowledgedBytes(S2)).isZero();
        }
        finally {
            s1.close();
        }
        assertThatThrownBy(() -> s1.send(S2, bytes("x"))).isInstanceOf(TransportUnavailableException.class)
                .hasMessage("The jms WAN link of site s1 is closed");
        assertThat(s1.state(S2)).isEqualTo(LinkState.DOWN);
        assertThatIllegalStateException().isThrownBy(() -> s1.open(new RecordingFrameHandler()))
                .withMessage("The jms WAN link of site s1 is closed");
    }

    @Test
    void largestFrameCrosses() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        JmsWanLink s1 = this.sites.open("s1", new RecordingFrameHandler());
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        this.sites.open("s2", h2);
        awaitState(s1, S2, LinkState.UP);
        byte[] largest = new byte[s1.maxFrameBytes()];
        for (int i = 0; i < largest.length; i++) {
            largest[i] = (byte) (i * 31);
        }

        s1.send(S2, largest);

        await().atMost(TIMEOUT).until(() -> !h2.frames().isEmpty());
        assertThat(h2.bytesFrom("s1").getFirst()).isEqualTo(largest);
    }

    /** Holds every frame the broker receives until released, as a slow WAN or a busy peer broker would. */
    private static final class HeldSends implements ActiveMQServerMessagePlugin {

        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger waiting = new AtomicInteger();
        volatile ActiveMQServer server;

        @Override
        public void registered(ActiveMQServer server) {
            this.server = server;
        }

        @Override
        public void beforeSend(ServerSession session, Transaction tx, org.apache.activemq.artemis.api.core.Message message,
                boolean direct, boolean noAutoCreateQueue) {
            if (message.getStringProperty(Frames.FROM) == null) {
                return;
            }
            this.waiting.incrementAndGet();
            try {
                this.release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            this.waiting.decrementAndGet();
        }
    }

    /**
     * A site's link broker as a primary/backup pair, one on each gateway of an active/standby pair: frames a peer's
     * broker confirmed to the active one are read from the other after the active one goes, and the peer follows.
     */
    @Test
    void aSitesPairOfLinkBrokersKeepsWhatAPeerSentWhenTheActiveOneGoes() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s2");
        int primaryPort = LoopbackPorts.freeTcp();
        int backupPort = LoopbackPorts.freeTcp();
        JmsWanLink leader = new JmsWanLink(pairedS1(PairRole.PRIMARY, primaryPort, backupPort));
        JmsWanLink standby = new JmsWanLink(pairedS1(PairRole.BACKUP, backupPort, primaryPort));
        JmsWanLink s2 = new JmsWanLink(this.sites.settings("s2").withPeers(Map.of(S1, JmsLinkSettings.Peer.at(
                "(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort + ")?ha=true"))));
        try (leader; standby; s2) {
            assertThat(standby.standbyHealth().up()).as("a standby whose backup broker has not started").isFalse();
            leader.standBy();
            standby.standBy();
            await().atMost(TIMEOUT).until(() -> standby.standbyHealth().up());
            assertThat(standby.standbyHealth().details()).containsEntry("pairSynchronized", true)
                    .containsEntry("brokerRunning", true).containsEntry("brokerActive", false);
            assertThat(standby.details()).containsEntry("pairSynchronized", true);
            assertThat(leader.details()).containsEntry("brokerActive", true).containsEntry("pairRole", "primary");
            assertThat(standby.details()).containsEntry("brokerActive", false).containsEntry("pairRole", "backup");
            s2.open(new RecordingFrameHandler());
            awaitState(s2, S1, LinkState.UP);
            List<byte[]> before = frames("before", 50);
            for (byte[] frame : before) {
                s2.send(S1, frame);
            }
            await().atMost(TIMEOUT).until(() -> s2.unacknowledgedBytes(S1) == 0);

            // The leader's gateway stops having read nothing: its broker hands over to the standby's.
            leader.close();
            RecordingFrameHandler received = new RecordingFrameHandler();
            standby.open(received);
            await().atMost(TIMEOUT).until(() -> received.frames().size() >= before.size());
            awaitState(s2, S1, LinkState.UP);
            List<byte[]> after = frames("after", 50);
            for (byte[] frame : after) {
                await().atMost(TIMEOUT).ignoreExceptions().untilAsserted(() -> s2.send(S1, frame));
            }

            List<byte[]> all = new ArrayList<>(before);
            all.addAll(after);
            await().atMost(TIMEOUT).until(() -> received.frames().size() >= all.size());
            assertThat(received.bytesFrom("s2")).containsExactlyElementsOf(all);
            assertThat(standby.details()).containsEntry("brokerActive", true);
        }
    }

    /** A lone link broker stays stopped on a standby: peers would send it frames no one takes. */
    @Test
    void aLoneLinkBrokerWaitsForOpenOnAStandby() throws Exception {
        this.sites = new LinkSites(this.tempDir, "s1", "s2");
        try (JmsWanLink s1 = new JmsWanLink(this.sites.settings("s1"))) {
            s1.standBy();

            assertThat(s1.details()).containsEntry("brokerActive", false);
            s1.open(new RecordingFrameHandler());
            assertThat(s1.details()).containsEntry("brokerActive", true);
        }
    }

    private JmsLinkSettings pairedS1(PairRole role, int port, int partnerPort) {
        JmsTransportSettings.Embedded embedded = JmsTransportSettings.Embedded.at("127.0.0.1", port,
                this.tempDir.resolve("s1-" + role.label())).withPair(JmsTransportSettings.Pair.of(role,
                        "127.0.0.1:" + partnerPort));
        return JmsLinkSettings.of(S1, LinkSites.USER, LinkSites.PASSWORD, embedded, LinkSites.BUDGET)
                .withPeers(Map.of(S2, JmsLinkSettings.Peer.at(this.sites.url("s2"))))
                .withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    }

    private static void awaitState(JmsWanLink link, SiteId peer, LinkState state) {
        await().atMost(TIMEOUT).until(() -> link.state(peer) == state);
    }

    private static List<byte[]> frames(String prefix, int count) {
        List<byte[]> frames = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            frames.add(bytes(prefix + " frame " + i + " " + "x".repeat(i % 97)));
        }
        return frames;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

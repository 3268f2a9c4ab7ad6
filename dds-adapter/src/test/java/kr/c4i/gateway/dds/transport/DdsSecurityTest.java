package kr.c4i.gateway.dds.transport;

import static kr.c4i.gateway.dds.transport.DdsTransportTest.ALPHA;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.BRAVO;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.CATALOGUE;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.CHARLIE;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.await;
import static kr.c4i.gateway.dds.transport.DdsTransportTest.reliableType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.SecurityRefusals;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.security.SecurePartitions;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.PemFiles;
import kr.c4i.gateway.pki.SiteAuthority;

/**
 * DDS Security with real Cyclone plugins and a real site PKI: nodes alpha, bravo and charlie of site s1, its WAN
 * gateway granted the remote node zulu it relays for, and a gateway granted only itself.
 */
class DdsSecurityTest {

    private static final Duration YEAR = Duration.ofDays(365);
    /** A node at another site, which the gateway stands in for on s1's domain. */
    private static final NodeId ZULU = NodeId.of("zulu");
    private static final NodeId GATEWAY = NodeId.of("gw-s1");
    /** A gateway whose grant names only itself, as {@code NodeGrant.forNodes} makes it. */
    private static final NodeId BARE_GATEWAY = NodeId.of("gw-bare");

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final MessageType type = reliableType(10);
    private SiteAuthority authority;
    private Map<NodeId, ParticipantSettings.Security> security;

    @BeforeEach
    void writeSitePki() {
        RoutingTable routing = RoutingTable.of(Map.of(ALPHA, List.of(this.type.id()), BRAVO,
                List.of(this.type.id()), CHARLIE, List.of(this.type.id()), ZULU, List.of(this.type.id())), CATALOGUE);
        List<NodeGrant> grants = new ArrayList<>(NodeGrant.forNodes(List.of(ALPHA, BRAVO, CHARLIE, BARE_GATEWAY),
                routing, CATALOGUE));
        grants.add(NodeGrant.forGateway(GATEWAY, List.of(ZULU), routing, CATALOGUE));
        this.authority = SiteAuthority.create("s1", YEAR);
        this.security = DdsSecurityFiles.write(this.dir.resolve("s1"), this.authority, TestNetwork.domainId(),
                DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, grants, YEAR);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : this.opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void securedNodesExchangeMessagesAndReceipts() throws Exception {
        Receipts receipts = new Receipts();
        DdsTransport alpha = transport(ALPHA);
        alpha.onReceipts(receipts::add);
        alpha.open();
        Peer bravo = Peer.start(List.of("-D" + PeerMain.SECURITY_DIR + "=" + site()), PeerMain.class,
                String.valueOf(TestNetwork.domainId()), BRAVO.value(), this.type.id());
        this.opened.add(bravo);
        bravo.await(line -> line.startsWith("READY"));
        DdsTransportTest.awaitMatched(alpha, this.type, 1);

        List<String> ids = DdsTransportTest.sendMany(alpha, this.type, "m", 20, 5);

        await(() -> receipts.ids(BRAVO).containsAll(ids), "20 messages receipted by bravo");
        bravo.await(line -> line.startsWith("RECEIVED 20 "));
        assertThat(alpha.stats().forgedReceipts()).isZero();
        assertThat(alpha.stats().participantsRefused()).isEqualTo(SecurityRefusals.NONE);
    }

    @Test
    void aParticipantWithoutSecurityFromAnotherSiteOrWithForgedPermissionsReachesNothingAndIsCounted()
            throws Exception {
        Refusing inbox = new Refusing();
        DdsTransport bravo = transport(BRAVO);
        bravo.open();
        bravo.subscribe(inbox);
        // Another site's authority, with documents it signed itself, issuing a certificate named like alpha.
        Path otherSite = this.dir.resolve("s2");
        SiteAuthority otherAuthority = SiteAuthority.create("s2", YEAR);
        NodeGrant asAlpha = new NodeGrant(ALPHA, Set.of(ALPHA), Set.of(this.type.topicName()),
                Set.of(this.type.topicName()));
        DdsSecurityFiles.write(otherSite, otherAuthority, TestNetwork.domainId(),
                DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, List.of(asAlpha), YEAR);
        // Charlie's genuine certificate with permissions the other authority signed, letting it write as alpha.
        Path forged = this.dir.resolve("forged");
        DdsSecurityFiles.write(forged, otherAuthority, TestNetwork.domainId(),
                DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, List.of(new NodeGrant(CHARLIE, Set.of(ALPHA, CHARLIE),
                        asAlpha.publishTopics(), asAlpha.subscribeTopics())),
                Map.of(CHARLIE, this.authority.issue(IdentityRequest.loopback(CHARLIE.value()), YEAR)), YEAR);
        List<Peer> intruders = List.of(
                writer("-", ALPHA, "message", SecurePartitions.messages(ALPHA), "plain-1@intruder", "plain-2@alpha"),
                writer(otherSite.toString(), ALPHA, "message", SecurePartitions.messages(ALPHA), "s2-1@alpha",
                        "s2-2@alpha"),
                writer(List.of("-D" + SecurityPeerMain.IDENTITY_CA + "=" + site().resolve(DdsSecurityFiles.CA)),
                        forged.toString(), CHARLIE, "message", SecurePartitions.messages(ALPHA), "forged-1@alpha"));
        for (Peer intruder : intruders) {
            intruder.await(line -> line.startsWith("WROTE"));
        }
        // A genuine alpha, started after them, is matched and delivered to; they are not.
        Peer alpha = writer(site().toString(), ALPHA, "message", SecurePartitions.messages(ALPHA), "genuine@alpha");
        alpha.await(line -> line.startsWith("WROTE"));
        await(() -> inbox.ids().contains("genuine"), "the genuine message");
        for (Peer intruder : intruders) {
            intruder.send("status");
            intruder.await(line -> line.equals("MATCHED 0"));
        }
        assertThat(inbox.ids()).containsExactly("genuine");
        assertThat(inbox.refusals()).isEmpty();

        // Without security and with forged permissions: counted once refused. Another authority's certificate:
        // Cyclone resends its handshake every second while it stays, which counts nothing yet.
        await(() -> bravo.stats().participantsRefused().equals(new SecurityRefusals(1, 0, 1)),
                "the participant without security and the forged permissions counted");
        Awaitility.await("resent handshakes not counted").during(Duration.ofMillis(2500))
                .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> bravo.stats().participantsRefused().equals(new SecurityRefusals(1, 0, 1)));
        for (Peer intruder : intruders) {
            intruder.close();
        }
        await(() -> bravo.stats().participantsRefused().authenticationFailed() == 1,
                "the other site's participant counted when it left");
        assertThat(bravo.stats().refused()).containsExactly(entry(SecurityRefusals.AUTHENTICATION_FAILED, 1L),
                entry(DdsTransportStats.REFUSED_FORGED_ORIGIN, 0L), entry(DdsTransportStats.REFUSED_FORGED_RECEIPT, 0L),
                entry(SecurityRefusals.NOT_PERMITTED, 1L), entry(SecurityRefusals.UNAUTHENTICATED, 1L));
    }

    @Test
    void aNodeWritingAsAnotherOriginIsRefusedAndCounted() throws Exception {
        Refusing inbox = new Refusing();
        DdsTransport bravo = transport(BRAVO);
        bravo.open();
        bravo.subscribe(inbox);
        // Its permissions keep charlie out of alpha's partition: Cyclone refuses the writer.
        writer(site().toString(), CHARLIE, "message", SecurePartitions.messages(ALPHA), "x@alpha")
                .await(line -> line.equals("REFUSED NotAllowedBySecurity"));
        // In its own partition it can write, but what claims alpha as origin is refused and counted.
        writer(site().toString(), CHARLIE, "message", SecurePartitions.messages(CHARLIE), "forged-1@alpha",
                "forged-2@alpha", "forged-3@alpha", "honest@charlie").await(line -> line.startsWith("WROTE"));

        await(() -> inbox.ids().contains("honest") && bravo.stats().forgedOrigins() == 3, "3 forged, 1 honest");
        assertThat(inbox.ids()).containsExactly("honest");
        assertThat(inbox.refusals()).extracting(InboundRefusal::kind).containsOnly(ReceiveLoop.FORGED_ORIGIN)
                .hasSize(3);
        assertThat(inbox.refusals()).extracting(InboundRefusal::messageId).allMatch(id -> id.startsWith("forged-"));
    }

    @Test
    void aNodeReceiptingForAnotherIsIgnoredAndCounted() throws Exception {
        Receipts receipts = new Receipts();
        DdsTransport alpha = transport(ALPHA);
        alpha.onReceipts(receipts::add);
        alpha.open();
        // As bravo, in bravo's partition: refused by charlie's permissions.
        writer(site().toString(), CHARLIE, "receipt", SecurePartitions.receipts(ALPHA, BRAVO), "m-0@alpha@bravo")
                .await(line -> line.equals("REFUSED NotAllowedBySecurity"));
        // In its own partition, naming bravo as the receiver: dropped and counted by alpha.
        writer(site().toString(), CHARLIE, "receipt", SecurePartitions.receipts(ALPHA, CHARLIE), "m-1@alpha@bravo",
                "m-2@alpha@bravo", "m-3@alpha@charlie").await(line -> line.startsWith("WROTE"));

        await(() -> receipts.ids(CHARLIE).contains("m-3") && alpha.stats().forgedReceipts() == 2,
                "2 forged, 1 genuine receipt");
        assertThat(receipts.ids(BRAVO)).isEmpty();
    }

    @Test
    void aGatewayGrantedTheRemoteNodeDeliversItsMessagesToASecuredNodeAndReadsTheReceipts() throws Exception {
        Receipts receipts = new Receipts();
        DdsTransport gateway = transport(GATEWAY, new Relaying(Set.of(ZULU), envelope -> Set.of()));
        gateway.onReceipts(receipts::add);
        gateway.open();
        Peer bravo = Peer.start(List.of("-D" + PeerMain.SECURITY_DIR + "=" + site()), PeerMain.class,
                String.valueOf(TestNetwork.domainId()), BRAVO.value(), this.type.id());
        this.opened.add(bravo);
        bravo.await(line -> line.startsWith("READY"));
        DdsTransportTest.awaitMatched(gateway, this.type, 1);

        List<String> ids = List.of("z-1", "z-2", "z-3");
        gateway.send(ids.stream().map(id -> new Outbound(new Envelope(id, ZULU, this.type.id(),
                this.type.defaultPrecedence(), "UNCLASSIFIED", Instant.now(),
                ("MSGID/" + this.type.id() + "/" + id + "//").getBytes(StandardCharsets.UTF_8)), this.type,
                List.of(BRAVO))).toList());

        await(() -> receipts.ids(BRAVO).containsAll(ids), "zulu's 3 messages receipted by bravo");
        bravo.await(line -> line.startsWith("RECEIVED 3 "));
    }

    @Test
    void aGatewayNotGrantedTheRemoteNodeCannotDeliverAsIt() throws Exception {
        Refusing inbox = new Refusing();
        DdsTransport bravo = transport(BRAVO);
        bravo.open();
        bravo.subscribe(inbox);
        // Its grant names only itself: Cyclone refuses it a writer in zulu's partition, as it refuses the transport
        // of such a gateway the writers it opens for the nodes it relays for.
        writer(site().toString(), BARE_GATEWAY, "message", SecurePartitions.messages(ZULU), "x@zulu")
                .await(line -> line.equals("REFUSED NotAllowedBySecurity"));
        // In its own partition, zulu's messages are refused by bravo as forged; the granted gateway's are taken.
        writer(site().toString(), BARE_GATEWAY, "message", SecurePartitions.messages(BARE_GATEWAY), "bare-1@zulu",
                "bare-2@zulu").await(line -> line.startsWith("WROTE"));
        writer(site().toString(), GATEWAY, "message", SecurePartitions.messages(ZULU), "granted@zulu")
                .await(line -> line.startsWith("WROTE"));

        await(() -> inbox.ids().contains("granted") && bravo.stats().forgedOrigins() == 2, "2 forged, 1 granted");
        assertThat(inbox.ids()).containsExactly("granted");
        assertThat(inbox.refusals()).extracting(InboundRefusal::messageId).containsExactlyInAnyOrder("bare-1",
                "bare-2");
    }

    @Test
    void aMissingSecurityFileIsNamedAndACycloneRefusalCarriesItsReason() {
        ParticipantSettings.Security alpha = this.security.get(ALPHA);
        ParticipantSettings.Security missing = new ParticipantSettings.Security(alpha.identityCertificate(),
                this.dir.resolve("nowhere.pem"), alpha.identityCa(), alpha.permissionsCa(), alpha.governance(),
                alpha.permissions());
        assertThatThrownBy(() -> participant(missing)).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("privateKey").hasMessageContaining("nowhere.pem");

        // Documents checked against another authority: their signature does not verify, and Cyclone says so.
        Path otherCa = this.dir.resolve("s2-ca.pem");
        PemFiles.writeCertificate(otherCa, SiteAuthority.create("s2", YEAR).certificate());
        ParticipantSettings.Security unsigned = new ParticipantSettings.Security(alpha.identityCertificate(),
                alpha.privateKey(), alpha.identityCa(), otherCa, alpha.governance(), alpha.permissions());
        assertThatThrownBy(() -> participant(unsigned)).isInstanceOf(DdsException.NotAllowedBySecurity.class)
                .hasMessageContaining("dds_create_participant")
                .hasMessageContaining("Error occurred while validating local permissions")
                .hasMessageContaining("PKCS7");
    }

    @Test
    void aProcessHoldsOneSecuredIdentityPerDomain() {
        // Cyclone 0.10's access control keeps one participant's permissions per domain: a second identity would
        // silently act under the first one's, so it is refused.
        participant(this.security.get(ALPHA));
        assertThatThrownBy(() -> participant(this.security.get(BRAVO))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("one configuration per domain and process");
        assertThatThrownBy(() -> participant(null)).isInstanceOf(IllegalStateException.class);
    }

    private Path site() {
        return this.dir.resolve("s1");
    }

    private Peer writer(String securityDir, NodeId node, String kind, String partition, String... samples)
            throws IOException {
        return writer(List.of(), securityDir, node, kind, partition, samples);
    }

    private Peer writer(List<String> jvmOptions, String securityDir, NodeId node, String kind, String partition,
            String... samples) throws IOException {
        List<String> args = new ArrayList<>(List.of(String.valueOf(TestNetwork.domainId()), securityDir,
                node.value(), kind, partition));
        args.addAll(List.of(samples));
        Peer peer = Peer.start(jvmOptions, SecurityPeerMain.class, args.toArray(String[]::new));
        this.opened.add(peer);
        return peer;
    }

    private DdsTransport transport(NodeId node) {
        return transport(node, null);
    }

    private DdsTransport transport(NodeId node, @Nullable Relaying relaying) {
        DdsTransportSettings base = TestNetwork.transport().build();
        DdsTransport transport = new DdsTransport(node, CATALOGUE, Set.of(this.type.id()),
                base.toBuilder().participant(base.participant().toBuilder().security(this.security.get(node))
                        .build()).build(), relaying);
        this.opened.add(transport);
        return transport;
    }

    private DomainParticipant participant(ParticipantSettings.Security security) {
        // One configuration per domain and process: the transport's write batching included.
        DomainParticipant participant = DomainParticipant.create(TestNetwork.loopback().toBuilder().writeBatch(true)
                .security(security).build());
        this.opened.add(participant);
        return participant;
    }

    /** Keeps what it is given and what the transport refused. */
    static final class Refusing implements InboundHandler {

        private final List<Envelope> envelopes = Collections.synchronizedList(new ArrayList<>());
        private final List<InboundRefusal> refusals = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void deliver(List<Envelope> batch) {
            this.envelopes.addAll(batch);
        }

        @Override
        public List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) {
            this.envelopes.addAll(batch);
            this.refusals.addAll(refused);
            return batch;
        }

        List<String> ids() {
            synchronized (this.envelopes) {
                return this.envelopes.stream().map(Envelope::messageId).toList();
            }
        }

        List<InboundRefusal> refusals() {
            synchronized (this.refusals) {
                return List.copyOf(this.refusals);
            }
        }
    }

    /** A child JVM whose standard output lines are collected; closing it closes its standard input and waits. */
    static final class Peer implements AutoCloseable {

        private final Process process;
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final Writer stdin;

        private Peer(Process process) {
            this.process = process;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        this.lines.add(line);
                    }
                }
                catch (IOException ex) {
                    // The process ended.
                }
            });
        }

        static Peer start(List<String> jvmOptions, Class<?> main, String... args) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED"));
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
            command.addAll(List.of(args));
            return new Peer(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
        }

        void await(Predicate<String> line) {
            DdsTransportTest.await(() -> {
                synchronized (this.lines) {
                    return this.lines.stream().anyMatch(line);
                }
            }, "a line from the peer; so far " + this.lines);
        }

        void send(String line) throws IOException {
            this.stdin.write(line + "\n");
            this.stdin.flush();
        }

        @Override
        public void close() throws Exception {
            try {
                this.stdin.close();
            }
            catch (IOException ex) {
                // Already gone.
            }
            if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
                this.process.destroyForcibly();
            }
        }
    }

    /** Receipted message ids by receiver. */
    static final class Receipts {

        private final Map<NodeId, List<String>> byReceiver = new ConcurrentHashMap<>();

        void add(NodeId receiver, List<String> ids) {
            this.byReceiver.computeIfAbsent(receiver, r -> Collections.synchronizedList(new ArrayList<>()))
                    .addAll(ids);
        }

        List<String> ids(NodeId receiver) {
            List<String> ids = this.byReceiver.getOrDefault(receiver, List.of());
            synchronized (ids) {
                return List.copyOf(ids);
            }
        }
    }
}

package kr.c4i.gateway.wan.lan;

import static kr.c4i.gateway.wan.lan.Envelopes.CATALOGUE;
import static kr.c4i.gateway.wan.lan.Envelopes.SITREP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.site.SiteMap;

/**
 * Real DDS nodes and the gateway's DDS LAN side on Cyclone over loopback, in one JVM; each site is its own domain.
 * Node {@code a} at site 1 sends to node {@code c} at site 3 (and {@code x} at site 2) through the site-1 gateway; the
 * site-2 gateway delivers to node {@code x} there.
 */
@Timeout(120)
class DdsLanSideTest {

    static final SiteId SITE1 = SiteId.of("site1");
    static final SiteId SITE2 = SiteId.of("site2");
    static final SiteId SITE3 = SiteId.of("site3");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");
    static final NodeId X = NodeId.of("x");
    static final Map<SiteId, List<NodeId>> SITES = Map.of(SITE1, List.of(A), SITE2, List.of(X), SITE3, List.of(C));
    static final MessageType OPSTAT = CATALOGUE.find("OPSTAT").orElseThrow();
    static final RoutingTable ROUTING = RoutingTable.of(Map.of(A, List.of(), C, List.of("SITREP"), X,
            List.of("SITREP", "OPSTAT")), CATALOGUE);
    static final Duration WAIT = Duration.ofSeconds(30);
    // Derived from the process id, so concurrent builds on one host rarely meet; a domain per site.
    static final int SITE1_DOMAIN = 1 + (int) (ProcessHandle.current().pid() % 100);
    static final int SITE2_DOMAIN = SITE1_DOMAIN + 100;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : this.opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void takesWhatANodePublishesForRemoteNodesAndReceiptsAsThemOnlyOnceStored() throws Exception {
        RecordingIngest ingest = new RecordingIngest(this.events).refusing(1);
        gateway(SITE1, "gw1", SITE1_DOMAIN).open(ingest);
        DdsTransport a = node(A, SITE1_DOMAIN);
        a.onReceipts((receiver, ids) -> this.events.add("receipt " + receiver + " " + ids));
        assertThat(a.awaitRemoteReaders(Map.of(SITREP.id(), 1), WAIT)).isEmpty();
        Envelope sent = Envelopes.sitrep("a-1", A);
        List<Outbound> outbound = List.of(new Outbound(sent, SITREP, List.of(C, X)));

        a.send(outbound);
        await().atMost(WAIT).until(() -> this.events.contains("ingest-refused [a-1]"));
        // Refused, so not receipted: a's outbox sends it again, as its resender would.
        a.send(outbound);
        await().atMost(WAIT).until(() -> this.events.containsAll(List.of("receipt c [a-1]", "receipt x [a-1]")));

        assertThat(this.events.subList(0, 2)).containsExactly("ingest-refused [a-1]", "ingest-stored [a-1]");
        assertThat(this.events.subList(2, 4)).containsExactlyInAnyOrder("receipt c [a-1]", "receipt x [a-1]");
        assertThat(ingest.stored).containsExactly(Map.entry("a-1", sent));
    }

    @Test
    void deliversToTheNodesOfThisSiteAndPassesCustodyOnlyOnceTheyReceipted() throws Exception {
        RecordingIngest ingest = new RecordingIngest(this.events);
        DdsLanSide gateway = gateway(SITE2, "gw2", SITE2_DOMAIN);
        gateway.open(ingest);
        DdsTransport x = node(X, SITE2_DOMAIN);
        x.subscribe(new RefusingOnce());
        Envelope fromA = Envelopes.sitrep("a-1", A);
        Envelope bestEffort = new Envelope("a-2", A, OPSTAT.id(), Precedence.ROUTINE, "SECRET", Instant.now(),
                "OPSTAT".getBytes());
        Envelope unknown = new Envelope("a-3", A, "NOSUCH", Precedence.FLASH, "SECRET", Instant.now(), new byte[1]);

        LanDelivery delivery = gateway.deliver(List.of(Envelopes.relayed(fromA, SITE1, SITE2),
                Envelopes.relayed(bestEffort, SITE1, SITE2), Envelopes.relayed(unknown, SITE1, SITE2)));

        assertThat(delivery.pending()).containsExactly("a-1");
        assertThat(delivery.passed()).containsExactly("a-2");
        assertThat(delivery.rejected()).containsOnlyKeys("a-3");
        await().atMost(WAIT).until(() -> ingest.delivered.contains("a-1"));
        // x refused the first copy, so only the gateway's resend reached its inbox.
        assertThat(this.events).containsSubsequence("x refused a-1", "x stored a-1", "delivered a-1");
        assertThat(ingest.delivered).containsExactly("a-1");
        assertThat((long) gateway.health().details().get("resent")).isPositive();
        assertThat(gateway.health().details()).containsEntry("pending", 0);

        // The gateway reads SITREP for c at site 3, and took its own copy of a's message with it: sent later, x's
        // own message to c is in once a's would have been.
        x.send(List.of(new Outbound(Envelopes.sitrep("x-1", X), SITREP, List.of(C))));
        await().atMost(WAIT).until(() -> ingest.stored.containsKey("x-1"));
        assertThat(ingest.callsWith("a-1")).isZero();
        assertThat(ingest.stored).containsOnlyKeys("x-1");
    }

    /** Node x's inbox: refuses the first copy of each message (not receipted), stores the next. */
    private final class RefusingOnce implements InboundHandler {

        private final Set<String> seen = ConcurrentHashMap.newKeySet();

        @Override
        public void deliver(List<Envelope> batch) {
            deliver(batch, List.of());
        }

        @Override
        public List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) {
            List<Envelope> stored = new ArrayList<>();
            for (Envelope envelope : batch) {
                if (this.seen.add(envelope.messageId())) {
                    events.add("x refused " + envelope.messageId());
                }
                else {
                    events.add("x stored " + envelope.messageId());
                    stored.add(envelope);
                }
            }
            return stored;
        }
    }

    private DdsLanSide gateway(SiteId site, String id, int domain) {
        DdsLanSide gateway = new DdsLanSide(NodeId.of(id), SiteMap.of(site, SITES, ROUTING), ROUTING, CATALOGUE,
                settings(domain), Duration.ofMillis(300), Duration.ofSeconds(1));
        this.opened.add(gateway);
        return gateway;
    }

    private DdsTransport node(NodeId node, int domain) throws Exception {
        DdsTransport transport = new DdsTransport(node, CATALOGUE, ROUTING.subscriptions(node), settings(domain));
        this.opened.add(transport);
        transport.open();
        return transport;
    }

    private static DdsTransportSettings settings(int domain) {
        return DdsTransportSettings.builder(Duration.ofSeconds(10), 4096)
                .participant(ParticipantSettings.builder().domainId(domain).networkInterface("127.0.0.1")
                        .multicast(false).peers(List.of("127.0.0.1")).build())
                .build();
    }
}

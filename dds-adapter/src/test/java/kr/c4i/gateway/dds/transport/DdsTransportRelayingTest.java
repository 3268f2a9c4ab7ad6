package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
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
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * A WAN gateway's transport stands in for node {@code charlie} at another site: it receipts as charlie what it takes
 * off the domain, publishes charlie's messages, reads the receipts for them, and never takes them back as inbound.
 */
@Timeout(120)
class DdsTransportRelayingTest {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    static final MessageType SITREP = CATALOGUE.find("SITREP").orElseThrow();
    static final NodeId GATEWAY = NodeId.of("gateway");
    static final NodeId ALPHA = NodeId.of("alpha");
    static final NodeId BRAVO = NodeId.of("bravo");
    static final NodeId CHARLIE = NodeId.of("charlie");

    private final List<DdsTransport> opened = new ArrayList<>();

    @AfterEach
    void close() {
        this.opened.forEach(DdsTransport::close);
    }

    @Test
    void aRelayReceiptsAsTheRemoteNodeAndReadsTheReceiptsForWhatItPublishesForIt() throws Exception {
        Map<String, Envelope> gatewayInbound = new ConcurrentHashMap<>();
        List<String> gatewayReceipts = new CopyOnWriteArrayList<>();
        List<String> alphaReceipts = new CopyOnWriteArrayList<>();
        Map<String, Envelope> bravoInbound = new ConcurrentHashMap<>();
        DdsTransport gateway = new DdsTransport(GATEWAY, CATALOGUE, Set.of(SITREP.id()),
                TestNetwork.transport().build(), new Relaying(Set.of(CHARLIE), e -> Set.of(CHARLIE)));
        this.opened.add(gateway);
        gateway.onReceipts((receiver, ids) -> ids.forEach(id -> gatewayReceipts.add(receiver + " " + id)));
        gateway.open();
        gateway.subscribe(batch -> batch.forEach(e -> gatewayInbound.put(e.messageId(), e)));
        DdsTransport alpha = open(ALPHA, Set.of());
        alpha.onReceipts((receiver, ids) -> ids.forEach(id -> alphaReceipts.add(receiver + " " + id)));
        DdsTransport bravo = open(BRAVO, Set.of(SITREP.id()));
        bravo.subscribe(batch -> batch.forEach(e -> bravoInbound.put(e.messageId(), e)));
        assertThat(alpha.awaitRemoteReaders(Map.of(SITREP.id(), 2), Duration.ofSeconds(30))).isEmpty();
        assertThat(gateway.awaitRemoteReaders(Map.of(SITREP.id(), 1), Duration.ofSeconds(30))).isEmpty();

        alpha.send(List.of(new Outbound(envelope("a-1", ALPHA), SITREP, List.of(BRAVO, CHARLIE))));
        await().atMost(Duration.ofSeconds(30)).until(() -> alphaReceipts.containsAll(List.of("bravo a-1",
                "charlie a-1")));
        assertThat(gatewayInbound).containsOnlyKeys("a-1");
        assertThat(alphaReceipts).doesNotContain("gateway a-1");

        Envelope fromCharlie = envelope("c-1", CHARLIE);
        gateway.send(List.of(new Outbound(fromCharlie, SITREP, List.of(BRAVO))));
        await().atMost(Duration.ofSeconds(30)).until(() -> gatewayReceipts.contains("bravo c-1"));
        assertThat(bravoInbound).containsEntry("c-1", fromCharlie);

        // Published after charlie's message, alpha's second one is in once charlie's would have been.
        alpha.send(List.of(new Outbound(envelope("a-2", ALPHA), SITREP, List.of(BRAVO, CHARLIE))));
        await().atMost(Duration.ofSeconds(30)).until(() -> gatewayInbound.containsKey("a-2"));
        assertThat(gatewayInbound).containsOnlyKeys("a-1", "a-2");
    }

    private DdsTransport open(NodeId node, Set<String> types) throws Exception {
        DdsTransport transport = new DdsTransport(node, CATALOGUE, types, TestNetwork.transport().build());
        this.opened.add(transport);
        transport.open();
        return transport;
    }

    private static Envelope envelope(String id, NodeId origin) {
        return new Envelope(id, origin, SITREP.id(), SITREP.defaultPrecedence(), "SECRET", Instant.now(),
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }
}

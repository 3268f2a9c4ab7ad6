package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.dds.CycloneDomains;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Transports of several nodes in one JVM, sharing one Cyclone domain instance (samples between them take
 * Cyclone's in-process path; DdsTransportProcessIT covers the wire).
 */
@Timeout(120)
class DdsTransportTest {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    static final NodeId ALPHA = NodeId.of("alpha");
    static final NodeId BRAVO = NodeId.of("bravo");
    static final NodeId CHARLIE = NodeId.of("charlie");

    private final List<DdsTransport> opened = new ArrayList<>();

    @AfterEach
    void closeTransports() {
        this.opened.forEach(DdsTransport::close);
    }

    @Test
    void envelopeRoundTripsWithEveryField() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = open(ALPHA, Set.of());
        Inbox bravo = new Inbox();
        DdsTransport bravoTransport = open(BRAVO, Set.of(type.id()));
        bravoTransport.subscribe(bravo);
        awaitMatched(alpha, type, 1);
        Instant createdAt = Instant.parse("2026-03-01T12:34:56.123456789Z");
        Envelope sent = new Envelope("alpha-000001", ALPHA, type.id(), Precedence.FLASH, "SECRET//REL TO KOR",
                createdAt, "EXER/까치 26//\nMSGID/SITREP/1사단//\n긴급 ✓ 𝄞".getBytes(StandardCharsets.UTF_8),
                trace(createdAt, 3), new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        alpha.send(List.of(new Outbound(sent, type, List.of(BRAVO))));
        await(() -> bravo.count() >= 1, "the envelope to arrive");
        assertThat(bravo.envelopes()).containsExactly(sent);
        assertThat(bravo.envelopes().getFirst().text()).isEqualTo(sent.text());
        assertThat(bravo.envelopes().getFirst().trace()).isEqualTo(sent.trace());
        assertThat(bravo.envelopes().getFirst().traceParent()).isEqualTo(sent.traceParent());
        assertThat(alpha.stats().samplesWritten()).isEqualTo(1);
        assertThat(bravoTransport.stats().samplesReceived()).isEqualTo(1);
    }

    @Test
    void tracesArriveHopForHopWithTheirTimesToTheMillisecond() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = open(ALPHA, Set.of());
        Inbox bravo = new Inbox();
        open(BRAVO, Set.of(type.id())).subscribe(bravo);
        awaitMatched(alpha, type, 1);
        Instant createdAt = Instant.parse("2026-03-01T12:34:56.123456789Z");
        // A hop between milliseconds arrives at the whole millisecond towards the creation: the trace's text keeps
        // milliseconds. (A hop before the creation is another clock's time.)
        HopTrace between = HopTrace.EMPTY.with(Hop.node(ALPHA, Action.SENT, createdAt.plusNanos(2_700_000)))
                .with(Hop.site(SiteId.of("s1"), Action.RELAYED, createdAt.minusNanos(1_400_000)));
        List<Envelope> sent = List.of(traced("t-empty", createdAt, HopTrace.EMPTY),
                traced("t-three", createdAt, trace(createdAt, 3)),
                traced("t-omitted", createdAt, trace(createdAt, HopTrace.MAX_HOPS + 3)),
                traced("t-between", createdAt, between));
        alpha.send(sent.stream().map(e -> new Outbound(e, type, List.of(BRAVO))).toList());
        await(() -> bravo.count() >= sent.size(), "the traced envelopes to arrive");
        List<Envelope> received = bravo.envelopes();
        assertThat(received).containsExactlyElementsOf(sent);
        for (int i = 0; i < 3; i++) {
            assertThat(received.get(i).trace()).as(sent.get(i).messageId()).isEqualTo(sent.get(i).trace());
        }
        assertThat(received.get(2).trace().omitted()).isEqualTo(3);
        assertThat(received.get(3).trace().hops()).extracting(Hop::at).containsExactly(createdAt.plusMillis(2),
                createdAt.minusMillis(1));
        assertThat(received.get(3).traceText()).isEqualTo("node alpha sent +2ms; site s1 relayed -1ms");
    }

    @Test
    void reliableKeepAllDeliversTenThousandMessagesWithoutLossInOrder() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = open(ALPHA, Set.of());
        Inbox bravo = new Inbox();
        open(BRAVO, Set.of(type.id())).subscribe(bravo);
        awaitMatched(alpha, type, 1);
        List<String> ids = sendMany(alpha, type, "m", 10_000, 200);
        await(() -> bravo.count() >= ids.size(), "10k messages to arrive");
        assertThat(bravo.ids()).containsExactlyElementsOf(ids);
    }

    @Test
    void lateJoiningNodeReceivesTheReliableTypesHistory() throws Exception {
        MessageType type = reliableType(20);
        int depth = type.historyDepth();
        DdsTransport alpha = open(ALPHA, Set.of());
        List<String> ids = sendMany(alpha, type, "h", depth + 5, 10);
        Inbox bravo = new Inbox();
        open(BRAVO, Set.of(type.id())).subscribe(bravo);
        awaitMatched(alpha, type, 1);
        // Sent once matched, the marker follows the history on the same writer: when it is in, so is all history.
        List<String> marker = sendMany(alpha, type, "marker", 1, 1);
        await(() -> bravo.ids().containsAll(marker), "the history, then the marker");
        List<String> expected = new ArrayList<>(ids.subList(5, ids.size()));
        expected.addAll(marker);
        assertThat(bravo.ids()).containsExactlyElementsOf(expected);
    }

    @Test
    void bestEffortTypesAreDeliveredWithoutDuplicates() throws Exception {
        MessageType type = CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.BEST_EFFORT)
                .findFirst().orElseThrow();
        DdsTransport alpha = open(ALPHA, Set.of());
        Inbox bravo = new Inbox();
        DdsTransport bravoTransport = open(BRAVO, Set.of(type.id()));
        bravoTransport.subscribe(bravo);
        awaitMatched(alpha, type, 1);
        List<String> ids = sendMany(alpha, type, "b", 100, 10);
        // BEST_EFFORT may drop, but counts what it drops: wait until every message is received or counted.
        await(() -> bravo.count() + alpha.stats().droppedUnmatched() + dropped(bravoTransport) >= ids.size(),
                "each best-effort message received or counted dropped");
        assertThat(bravo.count()).isPositive();
        assertThat(bravo.ids()).doesNotHaveDuplicates().isSubsetOf(ids);
    }

    @Test
    void aBurstOfOneThousandBestEffortMessagesOfOneTypeReachesEachOfTwoReceiversWhole() throws Exception {
        // History depth 1, the catalogue's smallest: a KEEP_LAST 1 reader kept about one message of such a burst.
        MessageType type = bestEffortType(1);
        DdsTransport alpha = open(ALPHA, Set.of());
        Map<NodeId, Inbox> inboxes = Map.of(BRAVO, new Inbox(), CHARLIE, new Inbox());
        Map<NodeId, DdsTransport> receivers = Map.of(BRAVO, open(BRAVO, Set.of(type.id())), CHARLIE,
                open(CHARLIE, Set.of(type.id())));
        receivers.forEach((node, transport) -> subscribe(transport, inboxes.get(node)));
        awaitMatched(alpha, type, 2);
        List<String> ids = sendMany(alpha, type, "burst", 1_000, 500, List.of(BRAVO, CHARLIE));
        for (NodeId node : receivers.keySet()) {
            Inbox inbox = inboxes.get(node);
            DdsTransport receiver = receivers.get(node);
            await(() -> inbox.count() + dropped(receiver) >= ids.size(), "the burst at " + node);
            assertThat(inbox.ids()).as("at %s", node).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(receiver.stats().dropped()).as("at %s", node).containsOnly(Map.entry("lost", 0L),
                    Map.entry("rejected", 0L), Map.entry("unmatched", 0L));
        }
        assertThat(alpha.stats().droppedUnmatched()).isZero();
    }

    @Test
    void aBestEffortReceiverThatFallsBehindCountsEverySampleItCannotHold() throws Exception {
        MessageType type = bestEffortType(1);
        DdsTransport alpha = open(ALPHA, Set.of());
        DdsTransport bravo = transport(BRAVO, Set.of(type.id()), TestNetwork.transport()
                .bestEffortBacklog(50).build());
        bravo.open();
        Inbox inbox = new Inbox();
        CountDownLatch sent = new CountDownLatch(1);
        // The inbox is slow: nothing is taken after the first batch until the whole burst was written.
        bravo.subscribe(batch -> {
            inbox.deliver(batch);
            awaitLatch(sent);
        });
        awaitMatched(alpha, type, 1);
        List<String> ids = sendMany(alpha, type, "slow", 1_000, 500, List.of(BRAVO));
        sent.countDown();
        await(() -> inbox.count() + dropped(bravo) >= ids.size(), "the burst delivered or counted");
        assertThat(inbox.ids()).doesNotHaveDuplicates().isSubsetOf(ids);
        assertThat(bravo.stats().droppedRejected()).isPositive();
        assertThat(inbox.count() + dropped(bravo)).as("delivered + counted drops").isEqualTo(ids.size());
    }

    @Test
    void bestEffortMessagesWrittenBeforeTheirDestinationsReaderMatchedAreCountedAsDropped() throws Exception {
        MessageType type = bestEffortType(1);
        DdsTransport alpha = open(ALPHA, Set.of());
        sendMany(alpha, type, "early", 10, 5, List.of(BRAVO, CHARLIE));
        assertThat(alpha.stats().droppedUnmatched()).isEqualTo(20);
        assertThat(alpha.stats().dropped()).containsEntry("unmatched", 20L);
        subscribe(open(BRAVO, Set.of(type.id())), new Inbox());
        awaitMatched(alpha, type, 1);
        sendMany(alpha, type, "half", 10, 5, List.of(BRAVO, CHARLIE));
        assertThat(alpha.stats().droppedUnmatched()).isEqualTo(30);
        MessageType reliable = reliableType(1);
        sendMany(alpha, reliable, "resent-by-receipts", 10, 5, List.of(CHARLIE));
        assertThat(alpha.stats().droppedUnmatched()).isEqualTo(30);
    }

    @Test
    void awaitingTheRoutesReadersReturnsOnceMatchedAndReportsWhatIsNot() throws Exception {
        MessageType type = bestEffortType(1);
        MessageType other = reliableType(1);
        DdsTransport alpha = open(ALPHA, Set.of(type.id()));
        subscribe(alpha, new Inbox());
        Map<String, Integer> routes = Map.of(type.id(), 1, other.id(), 2);
        long start = System.nanoTime();
        assertThat(alpha.awaitRemoteReaders(routes, Duration.ofMillis(300)))
                .containsOnly(Map.entry(type.id(), "0 of 1 readers"), Map.entry(other.id(), "0 of 2 readers"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(alpha.health().details()).containsKey("unmatchedRoutes");
        subscribe(open(BRAVO, Set.of(type.id(), other.id())), new Inbox());
        Thread.ofPlatform().daemon().start(() -> {
            try {
                // The stimulus, not a wait: charlie's reader appears while alpha is already waiting for it.
                Thread.sleep(200);
                subscribe(open(CHARLIE, Set.of(other.id())), new Inbox());
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        assertThat(alpha.awaitRemoteReaders(routes, Duration.ofSeconds(30))).isEmpty();
        assertThat(alpha.health().details()).doesNotContainKey("unmatchedRoutes");
    }

    @Test
    void everyCatalogueTypeGetsATopicAndAWriterThatMatchesQuickly() throws Exception {
        DdsTransport alpha = open(ALPHA, Set.of());
        long start = System.nanoTime();
        DdsTransport bravo = open(BRAVO, CATALOGUE.ids());
        bravo.subscribe(new Inbox());
        await(() -> alpha.stats().matchedReaders().values().stream().allMatch(n -> n >= 1), "all writers to match");
        Duration matched = Duration.ofNanos(System.nanoTime() - start).minus(bravo.openTime());
        assertThat(alpha.stats().matchedReaders()).hasSize(CATALOGUE.size());
        assertThat(CATALOGUE.size()).isEqualTo(270);
        System.out.printf("DDS in-process: %d topics+writers opened in %d ms; %d readers created and matched in %d ms%n",
                CATALOGUE.size(), alpha.openTime().toMillis(), CATALOGUE.size(), matched.toMillis());
        assertThat(alpha.openTime()).isLessThan(Duration.ofSeconds(5));
        assertThat(alpha.health().details()).containsEntry("topics", CATALOGUE.size());
    }

    @Test
    void receiptsFlowBackToTheOriginFromEveryReceiverAndOnlyToIt() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = transport(ALPHA, Set.of());
        Map<NodeId, Set<String>> receipted = new ConcurrentHashMap<>();
        alpha.onReceipts((receiver, ids) -> receipted.computeIfAbsent(receiver, r -> ConcurrentHashMap.newKeySet())
                .addAll(ids));
        alpha.open();
        DdsTransport bravo = open(BRAVO, Set.of(type.id()));
        List<NodeId> strayReceipts = new CopyOnWriteArrayList<>();
        bravo.onReceipts((receiver, ids) -> strayReceipts.add(receiver));
        bravo.subscribe(new Inbox());
        open(CHARLIE, Set.of(type.id())).subscribe(new Inbox());
        awaitMatched(alpha, type, 2);
        List<String> ids = sendMany(alpha, type, "r", 50, 10);
        await(() -> receipted.getOrDefault(BRAVO, Set.of()).size() == ids.size()
                && receipted.getOrDefault(CHARLIE, Set.of()).size() == ids.size(), "receipts from both receivers");
        assertThat(receipted.get(BRAVO)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(alpha.stats().receiptsReceived()).isPositive();
        assertThat(bravo.stats().receiptsSent()).isPositive();
        assertThat(strayReceipts).isEmpty();
    }

    @Test
    void aBatchTheHandlerRefusesIsHandedOverAgainAndReceiptedOnce() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = transport(ALPHA, Set.of());
        List<String> receipted = new CopyOnWriteArrayList<>();
        alpha.onReceipts((receiver, ids) -> receipted.addAll(ids));
        alpha.open();
        AtomicInteger calls = new AtomicInteger();
        Inbox inbox = new Inbox();
        DdsTransport bravo = transport(BRAVO, Set.of(type.id()), TestNetwork.transport()
                .redeliveryDelay(Duration.ofMillis(20)).build());
        bravo.open();
        bravo.subscribe(batch -> {
            if (calls.incrementAndGet() <= 2) {
                throw new IllegalStateException("inbox database down");
            }
            inbox.deliver(batch);
        });
        awaitMatched(alpha, type, 1);
        List<String> ids = sendMany(alpha, type, "f", 1, 1);
        await(() -> receipted.size() == 1, "the receipt");
        assertThat(inbox.ids()).containsExactlyElementsOf(ids);
        assertThat(bravo.stats().deliveryFailures()).isEqualTo(2);
        assertThat(bravo.stats().batchesDelivered()).isEqualTo(1);
    }

    @Test
    void whileSeveralTypesOfOnePrecedenceWaitEachBatchTakesAShareOfEveryOneOfThem() throws Exception {
        List<MessageType> types = CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.RELIABLE)
                .filter(t -> t.defaultPrecedence() == Precedence.IMMEDIATE).limit(2).toList();
        DdsTransport alpha = open(ALPHA, Set.of());
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        DdsTransport bravo = transport(BRAVO, types.stream().map(MessageType::id).collect(Collectors.toSet()),
                TestNetwork.transport().maxBatch(10).build());
        bravo.open();
        bravo.subscribe(batch -> {
            batches.add(batch.stream().map(Envelope::kmtfType).toList());
            busy.countDown();
            // The first batch holds the loop while both types' readers fill up.
            awaitLatch(release);
        });
        types.forEach(type -> awaitMatched(alpha, type, 1));
        sendMany(alpha, types.getFirst(), "first", 1, 1);
        awaitLatch(busy);
        // One domain in one JVM: Cyclone puts each sample in the reader within write.
        for (MessageType type : types) {
            sendMany(alpha, type, "many-" + type.id(), 50, 50);
        }
        release.countDown();
        await(() -> batches.stream().mapToInt(List::size).sum() == 101, "all 101 messages");
        // Each of the next batches: an equal share of each type that still waits, not ten of whichever comes first.
        for (List<String> batch : batches.subList(1, 6)) {
            assertThat(batch).hasSize(10);
            assertThat(Collections.frequency(batch, types.get(0).id())).isEqualTo(5);
            assertThat(Collections.frequency(batch, types.get(1).id())).isEqualTo(5);
        }
    }

    @Test
    void aFlashMessageArrivingBehindABurstOfItsTypeIsHandedOverBeforeTheBurstAndReceiptedAfterIt() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = transport(ALPHA, Set.of());
        List<String> receipted = new CopyOnWriteArrayList<>();
        alpha.onReceipts((receiver, ids) -> receipted.addAll(ids));
        alpha.open();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        DdsTransport bravo = transport(BRAVO, Set.of(type.id()), TestNetwork.transport().maxBatch(10).build());
        bravo.open();
        bravo.subscribe(batch -> {
            batches.add(batch.stream().map(Envelope::messageId).toList());
            busy.countDown();
            // The first batch holds the loop while the burst and then the FLASH message fill the reader.
            awaitLatch(release);
        });
        awaitMatched(alpha, type, 1);
        sendMany(alpha, type, "first", 1, 1);
        awaitLatch(busy);
        List<String> burst = sendMany(alpha, type, "routine", 200, 50);
        Envelope flash = new Envelope("flash", ALPHA, type.id(), Precedence.FLASH, "UNCLASSIFIED", Instant.now(),
                ("MSGID/" + type.id() + "/FLASH//").getBytes(StandardCharsets.UTF_8));
        alpha.send(List.of(new Outbound(flash, type, List.of(BRAVO))));
        release.countDown();
        await(() -> batches.stream().mapToInt(List::size).sum() == 202, "all 202 messages");
        // Twenty batches of the burst came before it off the reader; it goes first, and the burst in its order.
        assertThat(batches.get(1).getFirst()).isEqualTo("flash");
        assertThat(batches.stream().skip(1).flatMap(List::stream).filter(id -> !id.equals("flash")))
                .containsExactlyElementsOf(burst);
        // Receipted in the order it arrived: a receipt ahead of the burst would tell alpha the burst never came.
        await(() -> receipted.size() == 202, "all 202 receipts");
        assertThat(receipted.subList(1, 202)).containsExactlyElementsOf(
                Stream.concat(burst.stream(), Stream.of("flash")).toList());
    }

    @Test
    void oversizeInvalidTextAndUnknownTypesAreRejectedBeforeAnythingIsWritten() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = open(ALPHA, Set.of());
        Outbound good = outbound(type, "ok-1", "text");
        Outbound oversize = new Outbound(envelope(type, "big-1", new byte[type.maxSize() + 1], "UNCLASSIFIED"),
                type, List.of());
        assertThatThrownBy(() -> alpha.send(List.of(good, oversize))).isInstanceOf(MessageRejectedException.class)
                .hasMessageContaining("big-1").hasMessageContaining((type.maxSize() + 1) + "-byte body")
                .hasMessageContaining("maximum is " + type.maxSize())
                .satisfies(ex -> assertThat(((MessageRejectedException) ex).messageId()).isEqualTo("big-1"));
        Outbound badText = new Outbound(envelope(type, "utf-1", new byte[1], "SECRET\uDC00"), type, List.of());
        assertThatThrownBy(() -> alpha.send(List.of(badText))).isInstanceOf(MessageRejectedException.class)
                .hasMessageContaining("utf-1").hasMessageContaining("classification")
                .hasMessageContaining("unpaired surrogate");
        MessageType unknown = new MessageType("ZZTEST", "Not in the catalogue", type.category(), "kmtf/test/ZZTEST",
                Reliability.RELIABLE, 1, type.durability(), Precedence.ROUTINE, 1024);
        assertThatThrownBy(() -> alpha.send(List.of(outbound(unknown, "unk-1", "x"))))
                .isInstanceOf(MessageRejectedException.class).hasMessageContaining("ZZTEST")
                .hasMessageContaining("not in the catalogue");
        assertThat(alpha.stats().samplesWritten()).isZero();
        assertThatThrownBy(() -> new DdsTransport(BRAVO, CATALOGUE, Set.of("NOSUCHTYPE", type.id()),
                TestNetwork.transport().build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[NOSUCHTYPE]");
    }

    @Test
    void samplesThatAreNotValidEnvelopesAreRefusedWithTheirReasonAndCounted() throws Exception {
        MessageType type = reliableType(10);
        Inbox inbox = new Inbox();
        DdsTransport bravo = open(BRAVO, Set.of(type.id()));
        bravo.subscribe(inbox);
        // One configuration per domain and process: the transport's write batching included.
        try (DomainParticipant foreign = DomainParticipant.create(TestNetwork.loopback().toBuilder().writeBatch(true).build())) {
            Topic<KmtfMessageSample> topic = foreign.createTopic(type.topicName(), KmtfTypes.MESSAGE);
            DataWriter<KmtfMessageSample> writer = foreign.createWriter(topic, TopicQos.writer(type,
                    Duration.ofSeconds(5)));
            assertThat(writer.awaitMatched(1, Duration.ofSeconds(10))).isTrue();
            writer.write(new KmtfMessageSample("x-1", "Not A Node", type.id(), Precedence.ROUTINE, "U", 0, 1, 0,
                    new byte[1]));
            writer.write(new KmtfMessageSample("x-2", "delta", "OTHERTYPE", Precedence.ROUTINE, "U", 0, 2, 0,
                    new byte[1]));
            writer.write(new KmtfMessageSample("x-3", "delta", type.id(), Precedence.ROUTINE, "U", 0, 3, 0,
                    new byte[type.maxSize() + 1]));
            writer.write(new KmtfMessageSample("x-4", "delta", type.id(), Precedence.ROUTINE, "U", -1, 4, 0,
                    new byte[1]));
            writer.write(new KmtfMessageSample("x-5", "delta", type.id(), Precedence.ROUTINE, "U", 0, 5, 0,
                    new byte[1], "node delta sent +1ms; relayed by a friend"));
            writer.write(new KmtfMessageSample("x-6", "delta", type.id(), Precedence.ROUTINE, "U", 0, 6, 0,
                    new byte[1], "node delta sent +1ms; site s9 relayed +250ms"));
            writer.flush();
            await(() -> bravo.stats().samplesInvalid() == 4 && inbox.count() == 2, "4 invalid, 2 valid");
        }
        assertThat(inbox.ids()).containsExactly("x-4", "x-6");
        assertThat(inbox.envelopes().getFirst().createdAt()).isEqualTo(Instant.ofEpochSecond(-1, 999_999_999));
        assertThat(inbox.envelopes().getLast().traceText()).isEqualTo("node delta sent +1ms; site s9 relayed +250ms");
        assertThat(inbox.refusals()).extracting(InboundRefusal::messageId, InboundRefusal::kind).containsExactly(
                tuple("x-1", "invalid-origin"), tuple("x-2", "wrong-topic"), tuple("x-3", "oversize"),
                tuple("x-5", "invalid-trace"));
        assertThat(inbox.refusals().getLast().reason()).contains("x-5")
                .contains("'node delta sent +1ms; relayed by a friend'")
                .contains("'relayed by a friend' is not a hop");
    }

    @Test
    void aForeignSampleWithAMalformedTraceparentIsDeliveredWithoutItNotRefused() throws Exception {
        MessageType type = reliableType(10);
        Inbox inbox = new Inbox();
        DdsTransport bravo = open(BRAVO, Set.of(type.id()));
        bravo.subscribe(inbox);
        String traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try (DomainParticipant foreign = DomainParticipant.create(TestNetwork.loopback().toBuilder().writeBatch(true).build())) {
            Topic<KmtfMessageSample> topic = foreign.createTopic(type.topicName(), KmtfTypes.MESSAGE);
            DataWriter<KmtfMessageSample> writer = foreign.createWriter(topic, TopicQos.writer(type,
                    Duration.ofSeconds(5)));
            assertThat(writer.awaitMatched(1, Duration.ofSeconds(10))).isTrue();
            // Upper-case hex: another vendor's spelling, which a version-00 receiver must not read.
            writer.write(new KmtfMessageSample("y-1", "delta", type.id(), Precedence.ROUTINE, "U", 0, 1, 0,
                    new byte[1], "node delta sent +1ms", traceParent.toUpperCase()));
            writer.write(new KmtfMessageSample("y-2", "delta", type.id(), Precedence.ROUTINE, "U", 0, 2, 0,
                    new byte[1], "", traceParent));
            writer.flush();
            await(() -> inbox.count() == 2, "both samples delivered");
        }
        assertThat(inbox.ids()).containsExactly("y-1", "y-2");
        assertThat(inbox.envelopes()).extracting(Envelope::traceParent)
                .containsExactly(null, new TraceParent(traceParent));
        assertThat(inbox.envelopes().getFirst().traceText()).isEqualTo("node delta sent +1ms");
        assertThat(inbox.refusals()).isEmpty();
        assertThat(bravo.stats().samplesInvalid()).isZero();
    }

    @Test
    void closingIsIdempotentAndHealthFollowsTheLifecycle() throws Exception {
        DdsTransport alpha = transport(ALPHA, Set.of());
        assertThat(alpha.health().up()).isFalse();
        assertThatThrownBy(() -> alpha.send(List.of())).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("not open yet");
        alpha.open();
        TransportHealth health = alpha.health();
        assertThat(health.up()).isTrue();
        assertThat(health.details()).containsEntry("participantAlive", true).containsEntry("node", "alpha")
                .containsEntry("binding", "cyclone");
        assertThat(alpha.kind()).isEqualTo(TransportKind.DDS);
        alpha.close();
        alpha.close();
        assertThat(alpha.health().up()).isFalse();
        assertThat(alpha.health().details()).containsEntry("state", "closed");
        assertThatThrownBy(() -> alpha.send(List.of(outbound(reliableType(1), "late", "x"))))
                .isInstanceOf(TransportUnavailableException.class).hasMessageContaining("closed");
        assertThatThrownBy(alpha::open).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNodeAloneSendsAsManyStartAnnouncementsAsSetAndNoneWhenSetToNone() throws Exception {
        DdsTransport quiet = transport(ALPHA, Set.of(), TestNetwork.transport()
                .startAnnouncements(DdsTransportSettings.StartAnnouncements.NONE).build());
        quiet.open();
        DdsTransport announcing = transport(BRAVO, Set.of(), TestNetwork.transport()
                .startAnnouncements(new DdsTransportSettings.StartAnnouncements(3, Duration.ofMillis(20))).build());
        announcing.open();
        await(() -> announcing.startAnnouncementsSent() == 3, "three start announcements");
        Thread.sleep(100);
        assertThat(announcing.startAnnouncementsSent()).isEqualTo(3);
        assertThat(quiet.startAnnouncementsSent()).isZero();
    }

    @Test
    void startAnnouncementsEndOnceTheNodeMatchesAnotherOne() throws Exception {
        MessageType type = reliableType(10);
        DdsTransport alpha = open(ALPHA, Set.of());
        DdsTransport bravo = transport(BRAVO, Set.of(type.id()), TestNetwork.transport()
                .startAnnouncements(new DdsTransportSettings.StartAnnouncements(100, Duration.ofMillis(20))).build());
        bravo.open();
        bravo.subscribe(new Inbox());
        awaitMatched(alpha, type, 1);
        Thread.sleep(200);
        long sent = bravo.startAnnouncementsSent();
        Thread.sleep(300);
        assertThat(bravo.startAnnouncementsSent()).isEqualTo(sent).isLessThan(100);
    }

    @Test
    void aConfigurationCycloneRejectsFailsOpenAsUnavailableQuotingItAndCyclonesReason() {
        DdsTransportSettings settings = TestNetwork.transport().participant(TestNetwork.loopback().toBuilder()
                .vendorConfig("<CycloneDDS><Domain><NoSuchElement/></Domain></CycloneDDS>").build()).build();
        DdsTransport broken = new DdsTransport(ALPHA, CATALOGUE, Set.of(), settings);
        this.opened.add(broken);
        assertThatThrownBy(broken::open).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("Unable to join DDS domain").hasMessageContaining("NoSuchElement")
                .hasMessageContaining("NoSuchElement: unknown element");
    }

    @Test
    void recreatedParticipantsMatchAgainAndLoseNothingTheOriginSendsAgain() throws Throwable {
        MessageType type = reliableType(10);
        Map<String, Outbound> unreceipted = new ConcurrentHashMap<>();
        DdsTransport alpha = transport(ALPHA, Set.of());
        alpha.onReceipts((receiver, ids) -> ids.forEach(unreceipted::remove));
        alpha.open();
        Inbox inbox = new Inbox();
        DdsTransport bravo = open(BRAVO, Set.of(type.id()));
        bravo.subscribe(inbox);
        awaitMatched(alpha, type, 1);
        // What the outbox does for a receipting transport: whatever stays unreceipted is sent again.
        List<Exception> unexpected = new CopyOnWriteArrayList<>();
        ScheduledExecutorService outbox = Executors.newSingleThreadScheduledExecutor();
        outbox.scheduleWithFixedDelay(() -> {
            try {
                List<Outbound> due = List.copyOf(unreceipted.values());
                if (!due.isEmpty()) {
                    alpha.send(due);
                }
            }
            catch (TransportUnavailableException ex) {
                // Retryable, e.g. while the participants are swapped.
            }
            catch (Exception ex) {
                unexpected.add(ex);
            }
        }, 500, 500, TimeUnit.MILLISECONDS);
        try {
            List<String> ids = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (int batch = 0; batch < 10; batch++) {
                    List<Outbound> sent = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        String id = "r" + round + "-" + batch + "-" + i;
                        sent.add(outbound(type, id, "MSGID/" + type.id() + "/" + id + "//"));
                        ids.add(id);
                    }
                    sent.forEach(o -> unreceipted.put(o.envelope().messageId(), o));
                    alpha.send(sent);
                }
                // Recreated while messages and receipts are under way: the receiver's first, then the sender's.
                bravo.recreate(Set.of("a remote participant"));
                alpha.recreate(Set.of("a remote participant"));
            }
            await(unreceipted::isEmpty, "every message receipted");
            assertThat(Set.copyOf(inbox.ids())).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(unexpected).isEmpty();
        }
        finally {
            outbox.shutdownNow();
        }
        assertThat(alpha.stats().participantsRecreated()).isEqualTo(2);
        assertThat(bravo.stats().participantsRecreated()).isEqualTo(2);
        // Each replaced participant was deleted: the domain holds the two current ones.
        assertThat(CycloneDomains.participants(TestNetwork.domainId())).isEqualTo(2);
        assertThat(alpha.stats().samplesWritten()).isGreaterThanOrEqualTo(200);
        assertThat(alpha.health().up()).isTrue();
        assertThat(bravo.health().details()).containsEntry("readers", 1).containsEntry("topics", CATALOGUE.size());
    }

    static MessageType bestEffortType(int history) {
        return CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.BEST_EFFORT)
                .filter(t -> t.historyDepth() == history).findFirst().orElseThrow();
    }

    static long dropped(DdsTransport receiver) {
        DdsTransportStats stats = receiver.stats();
        return stats.droppedLost() + stats.droppedRejected();
    }

    private static void subscribe(DdsTransport transport, InboundHandler handler) {
        try {
            transport.subscribe(handler);
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    static MessageType reliableType(int minimumHistory) {
        return CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.RELIABLE)
                .filter(t -> t.historyDepth() >= minimumHistory).findFirst().orElseThrow();
    }

    /**
     * A trace of {@code hops} hops, whole milliseconds after {@code createdAt} as the trace's text keeps them: the
     * origin's "sent", then sites relaying (past {@link HopTrace#MAX_HOPS} it leaves hops out).
     */
    static HopTrace trace(Instant createdAt, int hops) {
        HopTrace trace = HopTrace.EMPTY;
        for (int i = 0; i < hops; i++) {
            Instant at = createdAt.plusMillis(3 + 17L * i * i);
            trace = trace.with(i == 0 ? Hop.node(ALPHA, Action.SENT, at)
                    : Hop.site(SiteId.of("s" + i), Action.RELAYED, at));
        }
        return trace;
    }

    private static Envelope traced(String id, Instant createdAt, HopTrace trace) {
        MessageType type = reliableType(10);
        return new Envelope(id, ALPHA, type.id(), type.defaultPrecedence(), "UNCLASSIFIED", createdAt,
                ("MSGID/" + type.id() + "/" + id + "//").getBytes(StandardCharsets.UTF_8), trace);
    }

    static Envelope envelope(MessageType type, String id, byte[] body, String classification) {
        return new Envelope(id, ALPHA, type.id(), type.defaultPrecedence(), classification,
                Instant.now(), body);
    }

    static Outbound outbound(MessageType type, String id, String text) {
        return outbound(type, id, text, List.of(BRAVO));
    }

    static Outbound outbound(MessageType type, String id, String text, List<NodeId> destinations) {
        return new Outbound(envelope(type, id, text.getBytes(StandardCharsets.UTF_8), "UNCLASSIFIED"), type,
                destinations);
    }

    static List<String> sendMany(DdsTransport transport, MessageType type, String prefix, int count, int batchSize)
            throws Exception {
        return sendMany(transport, type, prefix, count, batchSize, List.of(BRAVO));
    }

    static List<String> sendMany(DdsTransport transport, MessageType type, String prefix, int count, int batchSize,
            List<NodeId> destinations) throws Exception {
        List<String> ids = new ArrayList<>(count);
        List<Outbound> batch = new ArrayList<>(batchSize);
        for (int i = 0; i < count; i++) {
            String id = prefix + "-" + i;
            ids.add(id);
            batch.add(outbound(type, id, "MSGID/" + type.id() + "/" + i + "//", destinations));
            if (batch.size() == batchSize || i == count - 1) {
                transport.send(batch);
                batch.clear();
            }
        }
        return ids;
    }

    private DdsTransport open(NodeId node, Set<String> subscriptions) throws Exception {
        DdsTransport transport = transport(node, subscriptions);
        transport.open();
        return transport;
    }

    private DdsTransport transport(NodeId node, Set<String> subscriptions) {
        return transport(node, subscriptions, TestNetwork.transport().build());
    }

    private DdsTransport transport(NodeId node, Set<String> subscriptions, DdsTransportSettings settings) {
        DdsTransport transport = new DdsTransport(node, CATALOGUE, subscriptions, settings);
        this.opened.add(transport);
        return transport;
    }

    static void awaitMatched(DdsTransport transport, MessageType type, int readers) {
        await(() -> transport.stats().matchedReaders().getOrDefault(type.topicName(), 0) >= readers,
                readers + " readers on " + type.topicName());
    }

    /** This suite's wait: Awaitility, 30 s at most. */
    static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                .until(condition::getAsBoolean);
    }

    /** An inbound handler that keeps what it is given, refusals apart. */
    static final class Inbox implements InboundHandler {

        private final List<Envelope> envelopes = Collections.synchronizedList(new ArrayList<>());
        private final List<InboundRefusal> refusals = new CopyOnWriteArrayList<>();

        @Override
        public void deliver(List<Envelope> batch) {
            this.envelopes.addAll(batch);
        }

        @Override
        public List<Envelope> deliver(List<Envelope> batch, List<InboundRefusal> refused) {
            this.refusals.addAll(refused);
            deliver(batch);
            return batch;
        }

        List<InboundRefusal> refusals() {
            return List.copyOf(this.refusals);
        }

        int count() {
            return this.envelopes.size();
        }

        List<Envelope> envelopes() {
            synchronized (this.envelopes) {
                return List.copyOf(this.envelopes);
            }
        }

        List<String> ids() {
            return envelopes().stream().map(Envelope::messageId).toList();
        }
    }
}

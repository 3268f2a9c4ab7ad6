package kr.c4i.gateway.wan.seal;

import static kr.c4i.gateway.wan.seal.TestPki.GW_S1;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S2;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S3;
import static kr.c4i.gateway.wan.seal.TestPki.ROGUE_S1;
import static kr.c4i.gateway.wan.seal.TestPki.S1;
import static kr.c4i.gateway.wan.seal.TestPki.S2;
import static kr.c4i.gateway.wan.seal.TestPki.S3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.dds.link.DdsLinkSettings;
import kr.c4i.gateway.dds.link.DdsWanLink;
import kr.c4i.gateway.norm.link.NormLinkSettings;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * Sealed frames over the real norm link (libnorm, UDP on loopback) and the real dds link (Cyclone, a WAN domain of its
 * own): they cross once each; what an intruder sends as site s1 (a gateway of an untrusted authority, s3's gateway,
 * s1's frames changed or sent again, frames of s1's previous run) reaches s2's handler, the gateway's store, never,
 * and is counted by reason.
 */
@Timeout(300)
class SealedWanLinkTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** What a sender lets go unacknowledged to a peer, as the gateway's credit does. */
    private static final long CREDIT = 256 * 1024;
    private static final int WAN_DOMAIN = 1 + (int) (ProcessHandle.current().pid() % 70) + 160;

    enum Kind {
        NORM, DDS
    }

    private final int s1Port = LoopbackPorts.freeUdp();
    private final int s2Port = LoopbackPorts.freeUdp();
    private final List<WanLink> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.reversed().forEach(WanLink::close);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void sealedFramesCrossBothWaysOnceEachAndOnlyPeersCanReadThem(Kind kind) throws Exception {
        Recorder atS1 = new Recorder();
        Recorder atS2 = new Recorder();
        SealedWanLink s1 = sealed(raw(kind, S1, S2), TestPki.credentials(S1, GW_S1, Map.of(S2, GW_S2)), atS1);
        SealedWanLink s2 = sealed(raw(kind, S2, S1), TestPki.credentials(S2, GW_S2, Map.of(S1, GW_S1)), atS2);
        awaitUp(s1, S2);
        awaitUp(s2, S1);
        List<byte[]> toS2 = frames(new Random(1), 300, 1200);
        List<byte[]> toS1 = frames(new Random(2), 300, 1200);
        for (int i = 0; i < toS2.size(); i++) {
            sendWithinCredit(s1, S2, toS2.get(i));
            sendWithinCredit(s2, S1, toS1.get(i));
        }

        await().atMost(WAIT).until(() -> atS2.frames.size() >= toS2.size() && atS1.frames.size() >= toS1.size());
        assertThat(hex(atS2.frames)).containsExactlyElementsOf(hex(toS2));
        assertThat(hex(atS1.frames)).containsExactlyElementsOf(hex(toS1));
        for (RefusalReason reason : RefusalReason.values()) {
            assertThat(s2.refused(reason)).as(reason.label()).isZero();
        }
        assertThat(s1.maxFrameBytes()).isEqualTo(opened.getFirst().maxFrameBytes() - FrameSealer.MAX_OVERHEAD);
        @SuppressWarnings("unchecked")
        Map<String, Object> security = (Map<String, Object>) s2.details().get("security");
        assertThat(security).containsEntry("mode", "sealed").containsKeys("identity", "epoch", "peers", "refused");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void framesThatCannotProveTheirSiteOrComeAgainNeverReachTheHandlerAndAreCounted(Kind kind) throws Exception {
        Recorder atS2 = new Recorder();
        Map<RefusalReason, LongAdder> counted = new EnumMap<>(RefusalReason.class);
        Set<SiteId> refusedFrom = ConcurrentHashMap.newKeySet();
        SealedWanLink s2 = new SealedWanLink(raw(kind, S2, S1),
                TestPki.credentials(S2, GW_S2, Map.of(S1, GW_S1, S3, GW_S3)), (from, reason) -> {
                    refusedFrom.add(from);
                    synchronized (counted) {
                        counted.computeIfAbsent(reason, r -> new LongAdder()).increment();
                    }
                });
        opened.add(s2);
        s2.open(atS2);
        List<byte[]> genuine = frames(new Random(3), 20, 1000);

        // s1's gateway: its frames arrive; the same frames changed on the way, or sent again, do not.
        Tap firstRun = new Tap(raw(kind, S1, S2));
        SealedWanLink s1 = sealed(firstRun, TestPki.credentials(S1, GW_S1, Map.of(S2, GW_S2)), new Recorder());
        awaitUp(s1, S2);
        for (byte[] frame : genuine) {
            s1.send(S2, frame);
        }
        await().atMost(WAIT).until(() -> atS2.frames.size() == genuine.size());
        firstRun.tamper = true;
        s1.send(S2, genuine.getFirst());
        awaitCount(s2, RefusalReason.BAD_TAG, 1);
        List<byte[]> recorded = List.copyOf(firstRun.sent.subList(0, 5));
        for (byte[] again : recorded) {
            firstRun.link.send(S2, again);
        }
        awaitCount(s2, RefusalReason.REPLAY, 5);
        close(s1);

        // A gateway of an authority s2 does not trust, calling itself s1.
        SealedWanLink rogue = sealed(raw(kind, S1, S2), TestPki.forged(S1, ROGUE_S1, S2, GW_S2), new Recorder());
        awaitUp(rogue, S2);
        for (byte[] frame : frames(new Random(4), 3, 500)) {
            rogue.send(S2, frame);
        }
        awaitCount(s2, RefusalReason.UNKNOWN_KEY, 3);
        close(rogue);

        // s3's genuine gateway (trusted, OU s3) claiming to be s1.
        SealedWanLink impostor = sealed(raw(kind, S1, S2), TestPki.forged(S1, GW_S3, S2, GW_S2), new Recorder());
        awaitUp(impostor, S2);
        for (byte[] frame : frames(new Random(5), 3, 500)) {
            impostor.send(S2, frame);
        }
        awaitCount(s2, RefusalReason.WRONG_SITE, 3);
        close(impostor);

        // s1 restarted: its new run is taken, and its previous run's frames are refused from then on.
        Tap secondRun = new Tap(raw(kind, S1, S2));
        SealedWanLink restarted = sealed(secondRun, TestPki.credentials(S1, GW_S1, Map.of(S2, GW_S2)),
                new Recorder());
        awaitUp(restarted, S2);
        List<byte[]> later = frames(new Random(6), 3, 500);
        for (byte[] frame : later) {
            restarted.send(S2, frame);
        }
        await().atMost(WAIT).until(() -> atS2.frames.size() == genuine.size() + later.size());
        for (byte[] old : recorded) {
            secondRun.link.send(S2, old);
        }
        awaitCount(s2, RefusalReason.OLD_EPOCH, 5);

        List<byte[]> expected = new ArrayList<>(genuine);
        expected.addAll(later);
        assertThat(hex(atS2.frames)).containsExactlyElementsOf(hex(expected));
        assertThat(atS2.senders).containsOnly(S1);
        Map<RefusalReason, Long> totals = new EnumMap<>(RefusalReason.class);
        synchronized (counted) {
            counted.forEach((reason, count) -> totals.put(reason, count.sum()));
        }
        assertThat(totals).isEqualTo(Map.of(RefusalReason.BAD_TAG, 1L, RefusalReason.REPLAY, 5L,
                RefusalReason.UNKNOWN_KEY, 3L, RefusalReason.WRONG_SITE, 3L, RefusalReason.OLD_EPOCH, 5L));
        assertThat(refusedFrom).containsOnly(S1);
        @SuppressWarnings("unchecked")
        Map<String, Object> security = (Map<String, Object>) s2.details().get("security");
        assertThat(security.get("refused")).isEqualTo(Map.of("malformed", 0L, "unknown-site", 0L, "unknown-key", 3L,
                "wrong-site", 3L, "wrong-destination", 0L, "bad-tag", 1L, "replay", 5L, "old-epoch", 5L));
    }

    private WanLink raw(Kind kind, SiteId site, SiteId peer) {
        WanLink link = switch (kind) {
            case NORM -> new NormWanLink(NormLinkSettings.of(site,
                    Map.of(peer, "127.0.0.1:" + (peer.equals(S1) ? s1Port : s2Port)), 10_000_000)
                    .withEndpoint("127.0.0.1", site.equals(S1) ? s1Port : s2Port)
                    .withPeerTimeout(Duration.ofSeconds(60)));
            case DDS -> new DdsWanLink(DdsLinkSettings.builder(WAN_DOMAIN, site).peer(peer, "127.0.0.1")
                    .networkInterface("127.0.0.1").peerTimeout(Duration.ofSeconds(10)).build());
        };
        opened.add(link);
        return link;
    }

    private SealedWanLink sealed(WanLink link, SiteCredentials credentials, FrameHandler handler)
            throws TransportException {
        SealedWanLink sealed = new SealedWanLink(link, credentials, (from, reason) -> {
        });
        sealed.open(handler);
        return sealed;
    }

    private void close(WanLink link) {
        link.close();
    }

    private static void awaitUp(WanLink link, SiteId peer) {
        await().atMost(WAIT).until(() -> link.state(peer) == LinkState.UP);
    }

    private static void awaitCount(SealedWanLink link, RefusalReason reason, long count) {
        await().alias(reason.label()).atMost(WAIT).until(() -> link.refused(reason) >= count);
    }

    private static void sendWithinCredit(WanLink link, SiteId peer, byte[] frame) throws TransportException {
        if (link.unacknowledgedBytes(peer) >= CREDIT) {
            await().atMost(WAIT).until(() -> link.unacknowledgedBytes(peer) < CREDIT);
        }
        link.send(peer, frame);
    }

    private static List<byte[]> frames(Random random, int count, int maxBytes) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] frame = new byte[1 + random.nextInt(maxBytes)];
            random.nextBytes(frame);
            frames.add(frame);
        }
        return frames;
    }

    private static List<String> hex(List<byte[]> frames) {
        return frames.stream().map(HexFormat.of()::formatHex).toList();
    }

    /** The gateway's handler: what it was handed, from whom. */
    static final class Recorder implements FrameHandler {
        final List<byte[]> frames = new CopyOnWriteArrayList<>();
        final List<SiteId> senders = new CopyOnWriteArrayList<>();

        @Override
        public void received(SiteId from, byte[] frame) {
            senders.add(from);
            frames.add(frame);
        }
    }

    /** The link under a seal as an intruder on the path sees it: it records sealed frames and may change one. */
    static final class Tap implements WanLink {
        final WanLink link;
        final List<byte[]> sent = new CopyOnWriteArrayList<>();
        volatile boolean tamper;

        Tap(WanLink link) {
            this.link = link;
        }

        @Override
        public void send(SiteId peer, byte[] frame) throws TransportException {
            byte[] copy = frame.clone();
            if (tamper) {
                copy[copy.length - 20] ^= 0x40;
            }
            sent.add(copy);
            link.send(peer, copy);
        }

        @Override
        public String kind() {
            return link.kind();
        }

        @Override
        public Set<SiteId> peers() {
            return link.peers();
        }

        @Override
        public int maxFrameBytes() {
            return link.maxFrameBytes();
        }

        @Override
        public void open(FrameHandler handler) throws TransportException {
            link.open(handler);
        }

        @Override
        public long unacknowledgedBytes(SiteId peer) {
            return link.unacknowledgedBytes(peer);
        }

        @Override
        public LinkState state(SiteId peer) {
            return link.state(peer);
        }

        @Override
        public Map<String, Object> details() {
            return link.details();
        }

        @Override
        public void close() {
            link.close();
        }
    }
}

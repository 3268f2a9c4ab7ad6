package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.C;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static kr.c4i.gateway.wan.relay.S1Gateway.S1;
import static kr.c4i.gateway.wan.relay.S1Gateway.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.frame.ReceiptFrame;

/** Receipts owed within a share of a long round trip go to the peer as one frame, and none is left out. */
class ReceiptDelayTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long PEER_EPOCH = 7;

    private S1Gateway s1;
    private RelayEngine engine;

    @BeforeEach
    void startEngine() throws Exception {
        s1 = new S1Gateway(CustodyLog.off());
        engine = s1.engine();
    }

    @AfterEach
    void stop() throws Exception {
        engine.close();
        s1.close();
    }

    @Test
    void aReceiptWaitsATenthOfTheRoundTripAndNoMoreThanATenthOfASecond() {
        assertThat(PeerSender.receiptDelay(Duration.ZERO)).isZero();
        assertThat(PeerSender.receiptDelay(Duration.ofMillis(-5))).isZero();
        assertThat(PeerSender.receiptDelay(Duration.ofMillis(2))).isEqualTo(Duration.ofNanos(200_000));
        assertThat(PeerSender.receiptDelay(Duration.ofMillis(530))).isEqualTo(Duration.ofMillis(53));
        assertThat(PeerSender.receiptDelay(Duration.ofSeconds(4))).isEqualTo(PeerSender.RECEIPT_DELAY_MAX);
    }

    @Test
    void framesStoredOneAfterAnotherAcrossALongRoundTripAreReceiptedInFewerFramesThanTheyCameIn() throws Exception {
        // Stored one at a time: without the delay each frame's receipt is on its way before the next is stored.
        s1.link.roundTrip = Duration.ofSeconds(2);
        engine.start();
        int frames = 10;
        for (int seq = 1; seq <= frames; seq++) {
            engine.received(S2, s1.codec.data(PEER_EPOCH, seq, List.of(fromS2("r-" + seq))));
        }

        await().atMost(WAIT).until(() -> receipted().size() == frames);
        assertThat(receipted()).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, frames).boxed().toList());
        assertThat(receipts()).hasSizeLessThan(frames).allSatisfy(r -> assertThat(r.epoch()).isEqualTo(PEER_EPOCH));
    }

    @Test
    void withoutARoundTripAReceiptGoesAtOnceAndAloneBeforeTheNextFrameComes() throws Exception {
        engine.start();
        engine.received(S2, s1.codec.data(PEER_EPOCH, 1, List.of(fromS2("r-1"))));
        await().atMost(WAIT).until(() -> receipts().size() == 1);
        engine.received(S2, s1.codec.data(PEER_EPOCH, 2, List.of(fromS2("r-2"))));
        await().atMost(WAIT).until(() -> receipts().size() == 2);

        assertThat(receipts()).extracting(r -> List.copyOf(r.seqs())).containsExactly(List.of(1L), List.of(2L));
    }

    private List<ReceiptFrame> receipts() throws Exception {
        List<ReceiptFrame> receipts = new ArrayList<>();
        for (byte[] bytes : s1.link.frames()) {
            if (s1.codec.decode(bytes) instanceof ReceiptFrame receipt) {
                receipts.add(receipt);
            }
        }
        return receipts;
    }

    private List<Long> receipted() throws Exception {
        return receipts().stream().flatMap(r -> r.seqs().stream()).toList();
    }

    private static RelayedEnvelope fromS2(String id) {
        Envelope envelope = new Envelope(id, C, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
        return new RelayedEnvelope(envelope, List.of(S2), new TreeSet<>(Set.of(S1)));
    }
}

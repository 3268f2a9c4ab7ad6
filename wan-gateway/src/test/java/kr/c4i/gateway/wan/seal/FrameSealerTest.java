package kr.c4i.gateway.wan.seal;

import static kr.c4i.gateway.wan.seal.TestPki.GW_S1;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S2;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S3;
import static kr.c4i.gateway.wan.seal.TestPki.ROGUE_S1;
import static kr.c4i.gateway.wan.seal.TestPki.S1;
import static kr.c4i.gateway.wan.seal.TestPki.S2;
import static kr.c4i.gateway.wan.seal.TestPki.S3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import javax.crypto.SecretKey;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.link.SiteId;

/** The key schedule and the sealed frame format, both ends in one JVM. */
class FrameSealerTest {

    static final byte[] FRAME = "a DATA frame's bytes".getBytes(StandardCharsets.UTF_8);

    final SiteCredentials s1 = TestPki.credentials(S1, GW_S1, Map.of(S2, GW_S2, S3, GW_S3));
    final SiteCredentials s2 = TestPki.credentials(S2, GW_S2, Map.of(S1, GW_S1, S3, GW_S3));
    final SiteCredentials s3 = TestPki.credentials(S3, GW_S3, Map.of(S1, GW_S1, S2, GW_S2));

    @Test
    void bothEndsDeriveTheSameKeyPerDirectionAndEpochAndEveryOtherDiffers() {
        byte[] atS1 = s1.peers().get(S2).shared();
        byte[] atS2 = s2.peers().get(S1).shared();
        assertThat(atS1).isEqualTo(atS2);

        SecretKey s1ToS2 = FrameKeys.derive(atS1, 42, S1, S2);
        assertThat(FrameKeys.derive(atS2, 42, S1, S2).getEncoded()).isEqualTo(s1ToS2.getEncoded());
        assertThat(s1ToS2.getEncoded()).hasSize(32);
        assertThat(s1ToS2.getAlgorithm()).isEqualTo("AES");

        Set<String> keys = new HashSet<>();
        for (byte[] key : new byte[][] { s1ToS2.getEncoded(), FrameKeys.derive(atS1, 42, S2, S1).getEncoded(),
                FrameKeys.derive(atS1, 43, S1, S2).getEncoded(), FrameKeys.derive(atS1, 43, S2, S1).getEncoded(),
                FrameKeys.derive(s1.peers().get(S3).shared(), 42, S1, S3).getEncoded() }) {
            keys.add(Arrays.toString(key));
        }
        assertThat(keys).as("s1>s2, s2>s1, each in two epochs, and s1>s3").hasSize(5);
    }

    @Test
    void aSealedFrameOpensAtItsPeerOnceAndIsNotReadableOnTheWay() throws Exception {
        FrameSealer sender = new FrameSealer(s1);
        FrameSealer receiver = new FrameSealer(s2);
        byte[] sealed = sender.seal(S2, FRAME);

        assertThat(sealed.length - FRAME.length).as("overhead of the first frame").isEqualTo(1 + 4 + 4 + 8 + 1 + 16);
        assertThat(indexOf(sealed, "DATA".getBytes(StandardCharsets.UTF_8))).as("plain text in the sealed frame")
                .isNegative();
        FrameSealer.Opened opened = receiver.open(S1, sealed);
        assertThat(opened.frame()).isEqualTo(FRAME);
        assertThat(opened.epoch()).isEqualTo(sender.epoch());
        assertThat(opened.counter()).isZero();
        receiver.accept(opened);

        assertRefused(receiver, S1, sealed, RefusalReason.REPLAY);
        assertThat(receiver.open(S1, sender.seal(S2, FRAME)).counter()).isEqualTo(1);
    }

    @Test
    void aChangedByteAnywhereFailsTheTag() {
        FrameSealer sender = new FrameSealer(s1);
        FrameSealer receiver = new FrameSealer(s2);
        byte[] sealed = sender.seal(S2, FRAME);
        // The epoch, the counter, the ciphertext and the tag: the header is authenticated as well.
        for (int i = 1 + 2 * FrameKeys.KEY_ID_BYTES; i < sealed.length; i++) {
            byte[] tampered = sealed.clone();
            tampered[i] ^= 0x01;
            assertRefused(receiver, S1, tampered, RefusalReason.BAD_TAG);
        }
    }

    @Test
    void framesThatCannotProveTheirSiteOrAreNotForThisGatewayAreRefusedByReason() {
        FrameSealer receiver = new FrameSealer(s2);
        FrameSealer s3Sender = new FrameSealer(s3);

        // A rogue authority's gateway calling itself s1.
        FrameSealer rogue = new FrameSealer(TestPki.forged(S1, ROGUE_S1, S2, GW_S2));
        assertRefused(receiver, S1, rogue.seal(S2, FRAME), RefusalReason.UNKNOWN_KEY);
        // s3's genuine gateway, as the link says s1: its key is s3's.
        assertRefused(receiver, S1, s3Sender.seal(S2, FRAME), RefusalReason.WRONG_SITE);
        // A frame s1 sealed for s3, arriving at s2.
        assertRefused(receiver, S1, new FrameSealer(s1).seal(S3, FRAME), RefusalReason.WRONG_DESTINATION);
        // From a site s2 has no certificate for.
        FrameSealer lone = new FrameSealer(TestPki.credentials(S2, GW_S2, Map.of()));
        assertRefused(lone, S1, new FrameSealer(s1).seal(S2, FRAME), RefusalReason.UNKNOWN_SITE);
        // Rogue's key id replaced by s1's: the tag still fails.
        byte[] disguised = rogue.seal(S2, FRAME);
        System.arraycopy(s2.peers().get(S1).keyId(), 0, disguised, 1, FrameKeys.KEY_ID_BYTES);
        assertRefused(receiver, S1, disguised, RefusalReason.BAD_TAG);
        assertRefused(receiver, S1, new byte[10], RefusalReason.MALFORMED);
        byte[] otherVersion = new FrameSealer(s1).seal(S2, FRAME);
        otherVersion[0] = 2;
        assertRefused(receiver, S1, otherVersion, RefusalReason.MALFORMED);
    }

    @Test
    void aRestartedSendersNewEpochIsTakenAndItsOldOneRefusedAfter() throws Exception {
        FrameSealer receiver = new FrameSealer(s2);
        FrameSealer firstRun = new FrameSealer(s1);
        byte[] early = firstRun.seal(S2, FRAME);
        byte[] late = firstRun.seal(S2, FRAME);
        receiver.accept(receiver.open(S1, early));

        FrameSealer secondRun = new FrameSealer(s1);
        assertThat(secondRun.epoch()).isGreaterThan(firstRun.epoch());
        FrameSealer.Opened opened = receiver.open(S1, secondRun.seal(S2, FRAME));
        assertThat(opened.counter()).as("a new run counts from 0 under a new key").isZero();
        receiver.accept(opened);

        assertRefused(receiver, S1, late, RefusalReason.OLD_EPOCH);
        assertThat(receiver.peerEpochs()).containsEntry(S1, secondRun.epoch());
    }

    private static void assertRefused(FrameSealer receiver, SiteId from, byte[] sealed, RefusalReason reason) {
        assertThatThrownBy(() -> receiver.open(from, sealed)).isInstanceOf(FrameSealer.RefusedException.class)
                .extracting(e -> ((FrameSealer.RefusedException) e).reason()).isEqualTo(reason);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}

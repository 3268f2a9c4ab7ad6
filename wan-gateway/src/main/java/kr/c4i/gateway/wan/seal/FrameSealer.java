package kr.c4i.gateway.wan.seal;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.SiteId;

/**
 * Seals frames for peer sites and opens theirs (docs/wan-gateway.md, "Security"):
 *
 * <pre>
 * version=1  sender key id (4)  receiver key id (4)  epoch (8)  counter (varint)  AES-256-GCM ciphertext  tag (16)
 * </pre>
 *
 * The header is the AEAD's associated data. The key is per direction and per sender epoch ({@link FrameKeys}); the
 * nonce is the counter, which starts at 0 in every epoch and only grows, so no key ever sees a nonce twice. The epoch
 * is the sender's start time in milliseconds with 16 random bits below, so a later run has a larger epoch and a
 * receiver refuses an older one (a run's clock must not step back past the previous run's start). Thread-safe.
 */
public final class FrameSealer {

    static final int VERSION = 1;
    static final int TAG_BYTES = 16;
    private static final int FIXED_HEADER = 1 + 2 * FrameKeys.KEY_ID_BYTES + Long.BYTES;
    /** What sealing adds to a frame at most: the header with the longest counter, and the tag. */
    public static final int MAX_OVERHEAD = FIXED_HEADER + 10 + TAG_BYTES;
    private static final AtomicLong LAST_EPOCH = new AtomicLong();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A frame opened: its plain bytes, and where it stands in its sender's sequence. */
    public record Opened(SiteId from, long epoch, long counter, byte[] frame) {
    }

    /** A frame refused, and why. */
    public static final class RefusedException extends Exception {

        private final RefusalReason reason;

        RefusedException(RefusalReason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        public RefusalReason reason() {
            return reason;
        }
    }

    private final SiteCredentials credentials;
    private final byte[] ownKeyId;
    private final long epoch;
    private final Map<SiteId, Outbound> outbound = new LinkedHashMap<>();
    private final Map<SiteId, Inbound> inbound = new LinkedHashMap<>();
    private final Map<String, SiteId> sitesByKeyId = new LinkedHashMap<>();

    public FrameSealer(SiteCredentials credentials) {
        this(credentials, nextEpoch());
    }

    FrameSealer(SiteCredentials credentials, long epoch) {
        this.credentials = credentials;
        this.ownKeyId = FrameKeys.keyId(credentials.certificate());
        this.epoch = epoch;
        credentials.peers().forEach((site, peer) -> {
            outbound.put(site, new Outbound(FrameKeys.derive(peer.shared(), epoch, credentials.site(), site)));
            inbound.put(site, new Inbound(peer));
            sitesByKeyId.put(HexFormat.of().formatHex(peer.keyId()), site);
        });
    }

    /** A new epoch: the time now in its upper bits, random ones below; larger than any this JVM took before. */
    static long nextEpoch() {
        long candidate = (System.currentTimeMillis() << 16) | RANDOM.nextInt(1 << 16);
        return LAST_EPOCH.accumulateAndGet(candidate, (last, next) -> Math.max(last + 1, next));
    }

    public long epoch() {
        return epoch;
    }

    public SiteCredentials credentials() {
        return credentials;
    }

    /**
     * Runs {@code send} with the frame sealed for {@code peer}, under the peer's lock, so frames go to the link in
     * counter order.
     *
     * @throws IllegalArgumentException if this gateway has no certificate for the peer
     */
    public <E extends Exception> void seal(SiteId peer, byte[] frame, SealedSend<E> send) throws E {
        Outbound out = outbound.get(peer);
        if (out == null) {
            throw new IllegalArgumentException("No certificate for peer site " + peer);
        }
        synchronized (out) {
            send.send(seal(peer, out, out.counter++, frame));
        }
    }

    /** What {@link #seal(SiteId, byte[], SealedSend)} hands a sealed frame to. */
    @FunctionalInterface
    public interface SealedSend<E extends Exception> {
        void send(byte[] sealed) throws E;
    }

    byte[] seal(SiteId peer, byte[] frame) {
        byte[][] sealed = new byte[1][];
        seal(peer, frame, bytes -> sealed[0] = bytes);
        return sealed[0];
    }

    private byte[] seal(SiteId peer, Outbound out, long counter, byte[] frame) {
        ByteBuffer header = ByteBuffer.allocate(FIXED_HEADER + 10);
        header.put((byte) VERSION).put(ownKeyId).put(credentials.peers().get(peer).keyId()).putLong(epoch);
        putVarLong(header, counter);
        int headerBytes = header.position();
        byte[] sealed = Arrays.copyOf(header.array(), headerBytes + frame.length + TAG_BYTES);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, out.key, nonce(counter));
            cipher.updateAAD(sealed, 0, headerBytes);
            cipher.doFinal(frame, 0, frame.length, sealed, headerBytes);
            return sealed;
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed: " + e.getMessage(), e);
        }
    }

    /**
     * Opens a frame the link received from {@code from}: authentic, for this gateway, and not seen before in the
     * peer's {@link ReplayWindow}, which is not yet advanced; {@link #accept} does that once the frame was handled.
     */
    public Opened open(SiteId from, byte[] sealed) throws RefusedException {
        if (sealed.length < FIXED_HEADER + 1 + TAG_BYTES) {
            throw new RefusedException(RefusalReason.MALFORMED, sealed.length + " bytes are too few for a frame");
        }
        if (sealed[0] != VERSION) {
            throw new RefusedException(RefusalReason.MALFORMED, "format version " + sealed[0] + ", not " + VERSION);
        }
        Inbound in = inbound.get(from);
        if (in == null) {
            throw new RefusedException(RefusalReason.UNKNOWN_SITE, "no certificate for site " + from);
        }
        byte[] sender = Arrays.copyOfRange(sealed, 1, 1 + FrameKeys.KEY_ID_BYTES);
        if (!Arrays.equals(sender, in.peer.keyId())) {
            SiteId other = sitesByKeyId.get(HexFormat.of().formatHex(sender));
            throw other != null
                    ? new RefusedException(RefusalReason.WRONG_SITE, "sealed with site " + other + "'s key")
                    : new RefusedException(RefusalReason.UNKNOWN_KEY,
                            "sealed with key " + HexFormat.of().formatHex(sender) + ", not site " + from + "'s");
        }
        if (!Arrays.equals(sealed, 1 + FrameKeys.KEY_ID_BYTES, 1 + 2 * FrameKeys.KEY_ID_BYTES, ownKeyId, 0,
                FrameKeys.KEY_ID_BYTES)) {
            throw new RefusedException(RefusalReason.WRONG_DESTINATION, "sealed for another gateway");
        }
        ByteBuffer header = ByteBuffer.wrap(sealed).position(1 + 2 * FrameKeys.KEY_ID_BYTES);
        long frameEpoch = header.getLong();
        long counter = getVarLong(header, sealed.length - TAG_BYTES);
        int headerBytes = header.position();
        if (frameEpoch <= 0 || counter < 0) {
            throw new RefusedException(RefusalReason.MALFORMED, "epoch " + frameEpoch + ", counter " + counter);
        }
        synchronized (in) {
            byte[] frame;
            try {
                Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
                cipher.init(Cipher.DECRYPT_MODE, in.key(frameEpoch, from, credentials.site()), nonce(counter));
                cipher.updateAAD(sealed, 0, headerBytes);
                frame = cipher.doFinal(sealed, headerBytes, sealed.length - headerBytes);
            }
            catch (AEADBadTagException e) {
                throw new RefusedException(RefusalReason.BAD_TAG, "the tag does not verify");
            }
            catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM failed: " + e.getMessage(), e);
            }
            switch (in.window.check(frameEpoch, counter)) {
                case OLD_EPOCH -> throw new RefusedException(RefusalReason.OLD_EPOCH,
                        "epoch " + frameEpoch + " is older than " + in.window.epoch());
                case REPLAY -> throw new RefusedException(RefusalReason.REPLAY,
                        "counter " + counter + " of epoch " + frameEpoch + " was received already");
                case FRESH -> {
                }
            }
            return new Opened(from, frameEpoch, counter, frame);
        }
    }

    /** Notes an opened frame as received: the same frame again is now a replay. */
    public void accept(Opened opened) {
        Inbound in = inbound.get(opened.from());
        synchronized (in) {
            in.window.accept(opened.epoch(), opened.counter());
            in.keep(opened.epoch(), opened.from(), credentials.site());
        }
    }

    /** The replay windows as they are, to {@link #restore} when frames accepted after must be received again. */
    public Mark mark() {
        Map<SiteId, ReplayWindow> windows = new LinkedHashMap<>();
        inbound.forEach((site, in) -> {
            synchronized (in) {
                windows.put(site, in.window.copy());
            }
        });
        return new Mark(windows);
    }

    public void restore(Mark mark) {
        mark.windows.forEach((site, window) -> {
            Inbound in = inbound.get(site);
            synchronized (in) {
                in.window.restore(window);
            }
        });
    }

    /** The replay windows at one moment. */
    public static final class Mark {
        private final Map<SiteId, ReplayWindow> windows;

        private Mark(Map<SiteId, ReplayWindow> windows) {
            this.windows = windows;
        }
    }

    /** The newest epoch accepted from each peer (0: none yet). */
    public Map<SiteId, Long> peerEpochs() {
        Map<SiteId, Long> epochs = new LinkedHashMap<>();
        inbound.forEach((site, in) -> {
            synchronized (in) {
                epochs.put(site, in.window.epoch());
            }
        });
        return epochs;
    }

    private static GCMParameterSpec nonce(long counter) {
        return new GCMParameterSpec(TAG_BYTES * 8, ByteBuffer.allocate(12).putLong(4, counter).array());
    }

    private static void putVarLong(ByteBuffer buffer, long value) {
        long v = value;
        while ((v & ~0x7FL) != 0) {
            buffer.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    private static long getVarLong(ByteBuffer buffer, int limit) throws RefusedException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (buffer.position() >= limit) {
                throw new RefusedException(RefusalReason.MALFORMED, "the counter runs into the tag");
            }
            byte b = buffer.get();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new RefusedException(RefusalReason.MALFORMED, "the counter is longer than 10 bytes");
    }

    private static final class Outbound {
        final SecretKey key;
        long counter;

        Outbound(SecretKey key) {
            this.key = key;
        }
    }

    /** A peer's replay window and the key of its newest epoch (a frame of another epoch derives its own). */
    private static final class Inbound {
        final SiteCredentials.Peer peer;
        final ReplayWindow window = new ReplayWindow();
        long keyEpoch;
        @Nullable SecretKey key;

        Inbound(SiteCredentials.Peer peer) {
            this.peer = peer;
        }

        SecretKey key(long epoch, SiteId from, SiteId to) {
            SecretKey kept = key;
            return kept != null && keyEpoch == epoch ? kept : FrameKeys.derive(peer.shared(), epoch, from, to);
        }

        /** Keeps the key of an epoch accepted, unless it is older than the newest; a forged epoch is never kept. */
        void keep(long epoch, SiteId from, SiteId to) {
            if (epoch != keyEpoch && epoch == window.epoch()) {
                key = FrameKeys.derive(peer.shared(), epoch, from, to);
                keyEpoch = epoch;
            }
        }
    }
}

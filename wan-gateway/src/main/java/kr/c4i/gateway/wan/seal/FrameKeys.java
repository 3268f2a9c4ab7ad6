package kr.c4i.gateway.wan.seal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;

import javax.crypto.KDF;
import javax.crypto.KeyAgreement;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;

import kr.c4i.gateway.core.link.SiteId;

/**
 * The key schedule, all from the JDK's providers: the two gateways' static EC keys agree a secret (ECDH); HKDF-SHA256
 * extracts with the sending gateway's epoch as salt and expands with both site ids in sending order as info, so each
 * direction and each run of the sender has its own AES-256 key, which both ends derive alike.
 */
final class FrameKeys {

    static final int KEY_ID_BYTES = 4;
    private static final String INFO = "c4i-gateway wan frame v1 ";

    private FrameKeys() {
    }

    /** The ECDH secret of a private key and a peer's public key: the same from either end. */
    static byte[] agree(PrivateKey mine, PublicKey theirs) {
        try {
            KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
            agreement.init(mine);
            agreement.doPhase(theirs, true);
            return agreement.generateSecret();
        }
        catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot agree a key with " + theirs.getAlgorithm() + " key: "
                    + e.getMessage(), e);
        }
    }

    /** The AES-256 key of frames {@code from} sends {@code to} in its run {@code epoch}. */
    static SecretKey derive(byte[] shared, long epoch, SiteId from, SiteId to) {
        byte[] info = (INFO + from.value() + " " + to.value()).getBytes(StandardCharsets.UTF_8);
        try {
            return KDF.getInstance("HKDF-SHA256").deriveKey("AES", HKDFParameterSpec.ofExtract().addIKM(shared)
                    .addSalt(ByteBuffer.allocate(Long.BYTES).putLong(epoch).array()).thenExpand(info, 32));
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 failed: " + e.getMessage(), e);
        }
    }

    /** The first bytes of the SHA-256 of a certificate: how a frame names the keys it was sealed with. */
    static byte[] keyId(X509Certificate certificate) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()),
                    KEY_ID_BYTES);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("Cannot read certificate " + certificate.getSubjectX500Principal(), e);
        }
    }
}

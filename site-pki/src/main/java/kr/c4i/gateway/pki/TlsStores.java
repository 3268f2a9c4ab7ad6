package kr.c4i.gateway.pki;

import java.nio.file.Path;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;

/**
 * The files a TLS end (a broker, or a client of one) reads: a PKCS #12 key store with its identity, a PKCS #12 trust
 * store with the authorities it accepts, and one file with the password of both, each readable by its owner only.
 * The password is random, so it appears nowhere but in its file.
 *
 * @param keyStore {@code <name>.p12}
 * @param trustStore {@code trust.p12}
 * @param passwordFile {@code <name>.password}
 */
public record TlsStores(Path keyStore, Path trustStore, Path passwordFile) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Writes an identity's stores into a directory; the trust store holds the identity's own authority and any
     * others given (the authorities of peer sites, for a WAN gateway).
     */
    public static TlsStores write(Identity identity, Path directory, List<X509Certificate> otherAuthorities) {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        TlsStores stores = in(directory, identity.name());
        PemFiles.write(stores.passwordFile(), password, true);
        char[] chars = password.toCharArray();
        Identity.write(identity.keyStore(chars), stores.keyStore(), chars);
        KeyStore trust = Identity.trustStore(identity.authority(), chars);
        try {
            for (int i = 0; i < otherAuthorities.size(); i++) {
                trust.setCertificateEntry(Identity.AUTHORITY_ALIAS + "-" + (i + 1), otherAuthorities.get(i));
            }
        }
        catch (KeyStoreException e) {
            throw new PkiException("cannot add an authority to a trust store: " + e.getMessage(), e);
        }
        Identity.write(trust, stores.trustStore(), chars);
        return stores;
    }

    /** Where {@link #write} puts a holder's stores in a directory. */
    public static TlsStores in(Path directory, String holder) {
        return new TlsStores(directory.resolve(holder + ".p12"), directory.resolve("trust.p12"),
                directory.resolve(holder + ".password"));
    }

    /** Writes an identity's stores, trusting its own authority only. */
    public static TlsStores write(Identity identity, Path directory) {
        return write(identity, directory, List.of());
    }
}

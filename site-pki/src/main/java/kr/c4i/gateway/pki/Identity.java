package kr.c4i.gateway.pki;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * What a site authority issued to one node or gateway: its certificate, its private key, and the authority's own
 * certificate, which peers trust.
 *
 * @param certificate the holder's certificate, signed by the authority
 * @param privateKey the holder's private key
 * @param authority the authority's certificate
 */
public record Identity(X509Certificate certificate, PrivateKey privateKey, X509Certificate authority) {

    /** The alias of the key entry in {@link #keyStore(char[])}. */
    public static final String KEY_ALIAS = "identity";

    /** The alias of the authority's entry in {@link #trustStore(X509Certificate, char[])}. */
    public static final String AUTHORITY_ALIAS = "authority";

    /** The holder's name, the certificate's common name. */
    public String name() {
        return SiteAuthority.commonName(certificate);
    }

    /** The certificate's subject in the RFC 2253 form (most significant part last). */
    public String subject() {
        return certificate.getSubjectX500Principal().getName();
    }

    /** A PKCS #12 key store with the holder's key and certificate chain, for TLS. */
    public KeyStore keyStore(char[] password) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(KEY_ALIAS, privateKey, password, new Certificate[] { certificate, authority });
            return store;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new PkiException("cannot build a key store for " + name() + ": " + e.getMessage(), e);
        }
    }

    /** A PKCS #12 trust store holding only the given authority's certificate. */
    public static KeyStore trustStore(X509Certificate authority, char[] password) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, password);
            store.setCertificateEntry(AUTHORITY_ALIAS, authority);
            return store;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new PkiException("cannot build a trust store: " + e.getMessage(), e);
        }
    }

    /** Writes a key store to a file readable by its owner only. */
    public static void write(KeyStore store, Path file, char[] password) {
        PemFiles.write(file, "", true);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password);
        }
        catch (GeneralSecurityException | IOException e) {
            throw new PkiException("cannot write key store " + file + ": " + e.getMessage(), e);
        }
    }

    /** Names the holder, never the key. */
    @Override
    public String toString() {
        return "Identity[" + subject() + ", key " + privateKey.getAlgorithm() + "]";
    }
}

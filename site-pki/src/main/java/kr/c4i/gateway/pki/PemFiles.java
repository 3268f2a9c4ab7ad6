package kr.c4i.gateway.pki;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemGenerationException;

/**
 * Certificates and private keys as PEM files, the form OpenSSL, Cyclone DDS Security and operators' tools read. A
 * private key is written readable by its owner only.
 */
public final class PemFiles {

    private PemFiles() {
    }

    public static X509Certificate readCertificate(Path file) {
        Object object = readObject(file);
        if (!(object instanceof X509CertificateHolder holder)) {
            throw new PkiException(file + " holds no PEM certificate");
        }
        try {
            return new JcaX509CertificateConverter().getCertificate(holder);
        }
        catch (CertificateException e) {
            throw new PkiException(file + " holds an invalid certificate: " + e.getMessage(), e);
        }
    }

    public static PrivateKey readPrivateKey(Path file) {
        Object object = readObject(file);
        try {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            return switch (object) {
                case PrivateKeyInfo info -> converter.getPrivateKey(info);
                case PEMKeyPair pair -> converter.getKeyPair(pair).getPrivate();
                default -> throw new PkiException(file + " holds no unencrypted PEM private key");
            };
        }
        catch (IOException e) {
            throw new PkiException(file + " holds an unusable private key: " + e.getMessage(), e);
        }
    }

    public static String toPem(Object certificateOrKey) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(certificateOrKey);
        }
        catch (IOException e) {
            throw new PkiException("cannot encode " + certificateOrKey.getClass().getSimpleName() + " as PEM", e);
        }
        return text.toString();
    }

    public static void writeCertificate(Path file, X509Certificate certificate) {
        write(file, toPem(certificate), false);
    }

    /** Writes a private key as unencrypted PKCS #8 ({@code PRIVATE KEY}), which OpenSSL and the JDK both read. */
    public static void writePrivateKey(Path file, PrivateKey key) {
        try {
            write(file, toPem(new JcaPKCS8Generator(key, null).generate()), true);
        }
        catch (PemGenerationException e) {
            throw new PkiException("cannot encode a " + key.getAlgorithm() + " key as PKCS #8", e);
        }
    }

    /** Writes text, replacing the file; with {@code secret}, readable and writable by its owner only. */
    static void write(Path file, String text, boolean secret) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.deleteIfExists(file);
            if (secret) {
                Files.createFile(file,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        }
        catch (IOException e) {
            throw new PkiException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static Object readObject(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(reader)) {
            Object object = parser.readObject();
            if (object == null) {
                throw new PkiException(file + " holds no PEM object");
            }
            return object;
        }
        catch (IOException e) {
            throw new PkiException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}

package kr.c4i.gateway.wan.seal;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.pki.PemFiles;
import kr.c4i.gateway.pki.PkiException;
import kr.c4i.gateway.pki.SiteAuthority;

/**
 * This gateway's identity and its peer gateways' certificates, each checked once when the gateway starts: it chains
 * to one of the trusted site authorities (PKIX, no revocation lists) and its organisational unit is the site it is
 * configured for. Every problem is named in one {@link IllegalArgumentException}: a gateway with a certificate that
 * does not prove its site does not start.
 *
 * @param site this gateway's site
 * @param certificate this gateway's certificate, from its site's authority
 * @param privateKey its EC private key
 * @param peers each peer site's gateway certificate with the secret this gateway agrees with it
 */
public record SiteCredentials(SiteId site, X509Certificate certificate, PrivateKey privateKey,
        Map<SiteId, Peer> peers) {

    /** A peer gateway: its certificate, the id frames name it by, the ECDH secret shared with it. */
    public record Peer(SiteId site, X509Certificate certificate, byte[] keyId, byte[] shared) {
    }

    public SiteCredentials {
        peers = Map.copyOf(peers);
    }

    /**
     * Reads and checks PEM files.
     *
     * @throws IllegalArgumentException naming every file that cannot be read and every certificate that fails
     */
    public static SiteCredentials read(SiteId site, Path certificate, Path privateKey, Collection<Path> authorities,
            Map<SiteId, Path> peers) {
        List<String> problems = new ArrayList<>();
        @Nullable X509Certificate own = readCertificate(certificate, problems);
        @Nullable PrivateKey key = null;
        try {
            key = PemFiles.readPrivateKey(privateKey);
        }
        catch (PkiException | IllegalArgumentException e) {
            problems.add("private key " + privateKey + ": " + e.getMessage());
        }
        List<X509Certificate> trusted = new ArrayList<>();
        for (Path authority : authorities) {
            X509Certificate read = readCertificate(authority, problems);
            if (read != null) {
                trusted.add(read);
            }
        }
        Map<SiteId, X509Certificate> peerCertificates = new LinkedHashMap<>();
        peers.forEach((peer, file) -> {
            X509Certificate read = readCertificate(file, problems);
            if (read != null) {
                peerCertificates.put(peer, read);
            }
        });
        if (!problems.isEmpty() || own == null || key == null) {
            throw new IllegalArgumentException("WAN link security: " + String.join("; ", problems));
        }
        return of(site, own, key, trusted, peerCertificates);
    }

    /**
     * Checks certificates already read.
     *
     * @throws IllegalArgumentException naming every certificate that does not chain to {@code authorities} or names
     *         another site, and a private key that is not the certificate's
     */
    public static SiteCredentials of(SiteId site, X509Certificate certificate, PrivateKey privateKey,
            Collection<X509Certificate> authorities, Map<SiteId, X509Certificate> peers) {
        List<String> problems = new ArrayList<>();
        if (authorities.isEmpty()) {
            problems.add("no trusted authority is configured");
        }
        Set<TrustAnchor> anchors = new LinkedHashSet<>();
        authorities.forEach(a -> anchors.add(new TrustAnchor(a, null)));
        check("this gateway's certificate", certificate, site, anchors, problems);
        if (!matches(certificate, privateKey)) {
            problems.add("the private key is not that of this gateway's certificate "
                    + certificate.getSubjectX500Principal());
        }
        Map<SiteId, Peer> checked = new LinkedHashMap<>();
        Map<String, SiteId> keyIds = new LinkedHashMap<>();
        keyIds.put(HexFormat.of().formatHex(FrameKeys.keyId(certificate)), site);
        peers.forEach((peer, peerCertificate) -> {
            if (check("the certificate of peer site " + peer, peerCertificate, peer, anchors, problems)) {
                byte[] keyId = FrameKeys.keyId(peerCertificate);
                SiteId clash = keyIds.putIfAbsent(HexFormat.of().formatHex(keyId), peer);
                if (clash != null) {
                    problems.add("peer sites " + clash + " and " + peer + " have certificates of the same key id");
                }
                checked.put(peer, new Peer(peer, peerCertificate, keyId,
                        FrameKeys.agree(privateKey, peerCertificate.getPublicKey())));
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("WAN link security: " + String.join("; ", problems));
        }
        return new SiteCredentials(site, certificate, privateKey, checked);
    }

    private static boolean check(String what, X509Certificate certificate, SiteId site, Set<TrustAnchor> anchors,
            List<String> problems) {
        String subject = certificate.getSubjectX500Principal().getName();
        if (!anchors.isEmpty()) {
            try {
                PKIXParameters parameters = new PKIXParameters(anchors);
                parameters.setRevocationEnabled(false);
                CertPathValidator.getInstance("PKIX").validate(
                        CertificateFactory.getInstance("X.509").generateCertPath(List.of(certificate)), parameters);
            }
            catch (GeneralSecurityException e) {
                problems.add(what + " (" + subject + ") is not from a trusted site authority: " + e.getMessage());
                return false;
            }
        }
        String unit;
        try {
            unit = SiteAuthority.organisationalUnit(certificate);
        }
        catch (PkiException e) {
            problems.add(what + " (" + subject + ") names no site (OU)");
            return false;
        }
        if (!unit.equals(site.value())) {
            problems.add(what + " (" + subject + ") is for site " + unit + ", not " + site);
            return false;
        }
        if (!"EC".equals(certificate.getPublicKey().getAlgorithm())) {
            problems.add(what + " (" + subject + ") has no EC key");
            return false;
        }
        return true;
    }

    private static boolean matches(X509Certificate certificate, PrivateKey key) {
        byte[] probe = "c4i-gateway key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        }
        catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static @Nullable X509Certificate readCertificate(Path file, List<String> problems) {
        try {
            return PemFiles.readCertificate(file);
        }
        catch (PkiException | IllegalArgumentException e) {
            problems.add("certificate " + file + ": " + e.getMessage());
            return null;
        }
    }
}

package kr.c4i.gateway.pki;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

/**
 * A site's certificate authority. It issues the identities of the site's nodes and gateway (EC P-256 keys,
 * certificates for both TLS ends and for key agreement, with the holder's host names and addresses) and signs the
 * documents that DDS Security reads (governance and permissions) as S/MIME, the form Cyclone DDS's access control
 * plugin verifies; for that its own key usage allows signing besides certificates.
 *
 * <p>Subjects are {@code CN=<holder>,OU=<site>,O=c4i-gateway}, so a certificate names both the holder and its site.
 */
public final class SiteAuthority {

    /** The organisation every subject carries. */
    public static final String ORGANISATION = "c4i-gateway";

    /** How long an authority's certificate is valid unless told otherwise. */
    public static final Duration DEFAULT_AUTHORITY_VALIDITY = Duration.ofDays(3650);

    /** How long an issued identity is valid unless told otherwise. */
    public static final Duration DEFAULT_IDENTITY_VALIDITY = Duration.ofDays(825);

    /** Issued certificates start this long before now, so a peer whose clock is a little behind accepts them. */
    static final Duration CLOCK_SKEW = Duration.ofHours(1);

    private static final String CURVE = "secp256r1";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final Pattern SITE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final X509Certificate certificate;
    private final PrivateKey privateKey;

    private SiteAuthority(X509Certificate certificate, PrivateKey privateKey) {
        this.certificate = certificate;
        this.privateKey = privateKey;
    }

    /** Creates a new authority for a site, with a fresh key and a self-signed certificate. */
    public static SiteAuthority create(String site, Duration validity) {
        if (!SITE.matcher(site).matches()) {
            throw new IllegalArgumentException("site name '" + site
                    + "' must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        KeyPair keys = newKeyPair();
        X500Name subject = subject(site + "-ca", site);
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(subject, subject, keys.getPublic(), validity)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            return new SiteAuthority(sign(builder, keys.getPrivate()), keys.getPrivate());
        }
        catch (GeneralSecurityException | CertIOException e) {
            throw new PkiException("cannot create the authority of site " + site + ": " + e.getMessage(), e);
        }
    }

    /** An authority from its certificate and private key. */
    public static SiteAuthority of(X509Certificate certificate, PrivateKey privateKey) {
        if (certificate.getBasicConstraints() < 0) {
            throw new PkiException(certificate.getSubjectX500Principal() + " is not a certificate authority");
        }
        return new SiteAuthority(certificate, privateKey);
    }

    /** Reads an authority from its PEM certificate and key, as {@link #write(Path, Path)} wrote them. */
    public static SiteAuthority read(Path certificateFile, Path keyFile) {
        return of(PemFiles.readCertificate(certificateFile), PemFiles.readPrivateKey(keyFile));
    }

    public void write(Path certificateFile, Path keyFile) {
        PemFiles.writeCertificate(certificateFile, certificate);
        PemFiles.writePrivateKey(keyFile, privateKey);
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The site this authority serves, from its certificate's subject. */
    public String site() {
        return organisationalUnit(certificate);
    }

    /** Issues an identity to a node or gateway of this site, with a fresh key. */
    public Identity issue(IdentityRequest request, Duration validity) {
        KeyPair keys = newKeyPair();
        X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = builder(issuer, subject(request.name(), site()), keys.getPublic(),
                    validity)
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[] { KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth }))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(certificate));
            List<ASN1Encodable> names = new ArrayList<>();
            request.hostNames().forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
            for (InetAddress address : request.addresses()) {
                names.add(new GeneralName(GeneralName.iPAddress, address.getHostAddress()));
            }
            if (!names.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new DERSequence(names.toArray(ASN1Encodable[]::new)));
            }
            return new Identity(sign(builder, privateKey), keys.getPrivate(), certificate);
        }
        catch (GeneralSecurityException | CertIOException e) {
            throw new PkiException("cannot issue an identity to " + request.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Signs a text document as S/MIME with the authority's key: an opaque signed-data whose content is a
     * {@code text/plain} MIME part, which is what {@code openssl smime -verify -text} and DDS Security's access
     * control plugin accept.
     */
    public String signSmime(String document) {
        String part = "Content-Type: text/plain\r\n\r\n" + document.replaceAll("\r?\n", "\r\n");
        try {
            CMSSignedDataGenerator generator = new CMSSignedDataGenerator();
            generator.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(
                    new JcaDigestCalculatorProviderBuilder().build()).build(signer(privateKey), certificate));
            generator.addCertificates(new JcaCertStore(List.of(certificate)));
            byte[] signed = generator.generate(new CMSProcessableByteArray(part.getBytes(StandardCharsets.UTF_8)),
                    true).getEncoded();
            return "MIME-Version: 1.0\r\n"
                    + "Content-Disposition: attachment; filename=\"smime.p7m\"\r\n"
                    + "Content-Type: application/pkcs7-mime; smime-type=signed-data; name=\"smime.p7m\"\r\n"
                    + "Content-Transfer-Encoding: base64\r\n\r\n"
                    + Base64.getMimeEncoder(64, "\r\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(signed)
                    + "\r\n";
        }
        catch (OperatorCreationException | CMSException | CertificateException | IOException e) {
            throw new PkiException("cannot sign a document: " + e.getMessage(), e);
        }
    }

    /** The common name (the holder) of a certificate's subject. */
    public static String commonName(X509Certificate certificate) {
        return attribute(certificate.getSubjectX500Principal(), BCStyle.CN);
    }

    /** The organisational unit (the site) of a certificate's subject. */
    public static String organisationalUnit(X509Certificate certificate) {
        return attribute(certificate.getSubjectX500Principal(), BCStyle.OU);
    }

    private static String attribute(X500Principal principal, org.bouncycastle.asn1.ASN1ObjectIdentifier type) {
        RDN[] rdns = X500Name.getInstance(principal.getEncoded()).getRDNs(type);
        if (rdns.length == 0) {
            throw new PkiException(principal + " has no " + BCStyle.INSTANCE.oidToDisplayName(type));
        }
        return IETFUtils.valueToString(rdns[0].getFirst().getValue());
    }

    private static X500Name subject(String holder, String site) {
        return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, ORGANISATION).addRDN(BCStyle.OU, site)
                .addRDN(BCStyle.CN, holder).build();
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key,
            Duration validity) {
        if (validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity must be positive, not " + validity);
        }
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(63, RANDOM).add(BigInteger.ONE),
                Date.from(now.minus(CLOCK_SKEW)), Date.from(now.plus(validity)), subject, key);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer(key)));
        }
        catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static ContentSigner signer(PrivateKey key) throws OperatorCreationException {
        return new JcaContentSignerBuilder(SIGNATURE).build(key);
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec(CURVE), RANDOM);
            return generator.generateKeyPair();
        }
        catch (GeneralSecurityException e) {
            throw new PkiException("cannot generate an EC " + CURVE + " key: " + e.getMessage(), e);
        }
    }
}

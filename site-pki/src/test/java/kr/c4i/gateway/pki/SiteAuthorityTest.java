package kr.c4i.gateway.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.SignatureException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteAuthorityTest {

    private static final Duration YEAR = Duration.ofDays(365);

    private final SiteAuthority authority = SiteAuthority.create("s1", YEAR);

    @TempDir
    Path dir;

    @Test
    void anIssuedIdentityChainsToItsAuthorityAndNamesItsHolderSiteAndHosts() throws Exception {
        Identity identity = authority.issue(new IdentityRequest("a", List.of("node-a.s1", "localhost"),
                List.of(InetAddress.getByName("10.77.0.2"))), YEAR);

        validate(identity.certificate(), authority.certificate());
        assertThat(identity.name()).isEqualTo("a");
        assertThat(SiteAuthority.organisationalUnit(identity.certificate())).isEqualTo("s1");
        assertThat(identity.subject()).isEqualTo("CN=a,OU=s1,O=c4i-gateway");
        assertThat(identity.certificate().getSubjectAlternativeNames())
                .extracting(name -> (Object) name.get(1))
                .containsExactly((Object) "node-a.s1", "localhost", "10.77.0.2");
        assertThat(identity.certificate().getExtendedKeyUsage())
                .contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(identity.certificate().getBasicConstraints()).isEqualTo(-1);
        assertThat(authority.site()).isEqualTo("s1");
        assertThat(identity.toString()).doesNotContain(identity.privateKey().toString());
    }

    @Test
    void anotherSitesIdentityDoesNotChainToThisAuthority() {
        Identity foreign = SiteAuthority.create("s2", YEAR).issue(IdentityRequest.loopback("a"), YEAR);

        assertThatThrownBy(() -> validate(foreign.certificate(), authority.certificate()))
                .isInstanceOf(CertPathValidatorException.class);
        assertThatThrownBy(() -> foreign.certificate().verify(authority.certificate().getPublicKey()))
                .isInstanceOf(SignatureException.class);
    }

    @Test
    void anAuthorityAndAnIdentityReadBackFromPemWithTheKeyReadableByItsOwnerOnly() throws Exception {
        authority.write(dir.resolve("ca.crt"), dir.resolve("ca.key"));
        SiteAuthority read = SiteAuthority.read(dir.resolve("ca.crt"), dir.resolve("ca.key"));
        Identity identity = read.issue(IdentityRequest.loopback("b"), YEAR);
        PemFiles.writePrivateKey(dir.resolve("b.key"), identity.privateKey());

        assertThat(read.certificate()).isEqualTo(authority.certificate());
        validate(identity.certificate(), authority.certificate());
        assertThat(PemFiles.readPrivateKey(dir.resolve("b.key"))).isEqualTo(identity.privateKey());
        assertThat(Files.getPosixFilePermissions(dir.resolve("ca.key")))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.getPosixFilePermissions(dir.resolve("b.key")))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    }

    @Test
    void aKeyStoreAndTrustStoreWrittenToFilesLoadWithTheirPassword() throws Exception {
        Identity identity = authority.issue(IdentityRequest.loopback("a"), YEAR);
        char[] password = "changeit-a".toCharArray();
        Identity.write(identity.keyStore(password), dir.resolve("a.p12"), password);
        Identity.write(Identity.trustStore(authority.certificate(), password), dir.resolve("trust.p12"), password);

        KeyStore keys = load(dir.resolve("a.p12"), password);
        KeyStore trust = load(dir.resolve("trust.p12"), password);

        assertThat(keys.getKey(Identity.KEY_ALIAS, password)).isEqualTo(identity.privateKey());
        assertThat(keys.getCertificateChain(Identity.KEY_ALIAS))
                .containsExactly(identity.certificate(), authority.certificate());
        assertThat(trust.getCertificate(Identity.AUTHORITY_ALIAS)).isEqualTo(authority.certificate());
        assertThatThrownBy(() -> load(dir.resolve("a.p12"), "wrong".toCharArray())).isInstanceOf(IOException.class);
    }

    @Test
    void aSignedDocumentVerifiesWithOpenSslAgainstTheAuthorityAndNotAgainstAnother() throws Exception {
        String document = "<?xml version=\"1.0\"?>\n<dds><domain_access_rules/></dds>\n";
        Files.writeString(dir.resolve("doc.p7s"), authority.signSmime(document));
        authority.write(dir.resolve("ca.crt"), dir.resolve("ca.key"));
        SiteAuthority.create("s2", YEAR).write(dir.resolve("other.crt"), dir.resolve("other.key"));

        OpenSsl verified = openSslVerify(dir.resolve("doc.p7s"), dir.resolve("ca.crt"));
        OpenSsl foreign = openSslVerify(dir.resolve("doc.p7s"), dir.resolve("other.crt"));

        assertThat(verified.exit()).as(verified.errors()).isZero();
        assertThat(verified.output().replace("\r\n", "\n")).isEqualTo(document);
        assertThat(foreign.exit()).isNotZero();
    }

    @Test
    void aTamperedSignedDocumentFailsToVerify() throws Exception {
        String signed = authority.signSmime("<permissions>node a may publish</permissions>\n");
        String body = signed.substring(signed.indexOf("\r\n\r\n") + 4).replace("\r\n", "");
        byte[] der = java.util.Base64.getDecoder().decode(body);
        int at = indexOf(der, "node a".getBytes(StandardCharsets.US_ASCII));
        der[at + 5] = 'b';
        Files.writeString(dir.resolve("doc.p7s"), signed.substring(0, signed.indexOf("\r\n\r\n") + 4)
                + java.util.Base64.getMimeEncoder().encodeToString(der) + "\r\n");
        authority.write(dir.resolve("ca.crt"), dir.resolve("ca.key"));

        assertThat(openSslVerify(dir.resolve("doc.p7s"), dir.resolve("ca.crt")).exit()).isNotZero();
    }

    @Test
    void badNamesAndValiditiesAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> SiteAuthority.create("s 1", YEAR)).hasMessageContaining("'s 1'");
        assertThatThrownBy(() -> IdentityRequest.loopback("a,O=evil")).hasMessageContaining("'a,O=evil'");
        assertThatThrownBy(() -> authority.issue(IdentityRequest.loopback("a"), Duration.ZERO))
                .hasMessageContaining("PT0S");
        Identity identity = authority.issue(IdentityRequest.loopback("a"), YEAR);
        assertThatThrownBy(() -> SiteAuthority.of(identity.certificate(), identity.privateKey()))
                .isInstanceOf(PkiException.class).hasMessageContaining("not a certificate authority");
    }

    @Test
    void aFileWithoutPemIsNamed() throws IOException {
        Files.writeString(dir.resolve("empty.pem"), "not pem\n");

        assertThatThrownBy(() -> PemFiles.readCertificate(dir.resolve("empty.pem")))
                .isInstanceOf(PkiException.class).hasMessageContaining("empty.pem");
        assertThatThrownBy(() -> PemFiles.readPrivateKey(dir.resolve("missing.pem")))
                .isInstanceOf(PkiException.class).hasMessageContaining("missing.pem");
    }

    private static void validate(X509Certificate certificate, X509Certificate anchor) throws Exception {
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
        parameters.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(certificate)), parameters);
    }

    private static KeyStore load(Path file, char[] password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        return store;
    }

    private record OpenSsl(int exit, String output, String errors) {
    }

    private OpenSsl openSslVerify(Path signed, Path caFile) throws Exception {
        Process process = new ProcessBuilder("openssl", "smime", "-verify", "-text", "-in", signed.toString(),
                "-CAfile", caFile.toString()).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new OpenSsl(process.exitValue(), output, errors);
    }

    private static int indexOf(byte[] data, byte[] part) {
        outer:
        for (int i = 0; i <= data.length - part.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (data[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}

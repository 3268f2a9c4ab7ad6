package kr.c4i.gateway.wan.seal;

import static kr.c4i.gateway.wan.seal.TestPki.GW_S1;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S2;
import static kr.c4i.gateway.wan.seal.TestPki.GW_S3;
import static kr.c4i.gateway.wan.seal.TestPki.ROGUE_S1;
import static kr.c4i.gateway.wan.seal.TestPki.S1;
import static kr.c4i.gateway.wan.seal.TestPki.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.pki.PemFiles;

/** A gateway whose own or peer certificate does not prove its site does not start. */
class SiteCredentialsTest {

    @TempDir
    Path dir;

    @Test
    void certificatesFromTheTrustedAuthoritiesForTheirSitesAreTakenFromPemFiles() {
        Path certificate = dir.resolve("gw-s2.crt");
        Path key = dir.resolve("gw-s2.key");
        Path authority = dir.resolve("s1-ca.crt");
        Path ownAuthority = dir.resolve("s2-ca.crt");
        Path peer = dir.resolve("gw-s1.crt");
        PemFiles.writeCertificate(certificate, GW_S2.certificate());
        PemFiles.writePrivateKey(key, GW_S2.privateKey());
        PemFiles.writeCertificate(authority, TestPki.AUTHORITY_S1.certificate());
        PemFiles.writeCertificate(ownAuthority, TestPki.AUTHORITY_S2.certificate());
        PemFiles.writeCertificate(peer, GW_S1.certificate());

        SiteCredentials credentials = SiteCredentials.read(S2, certificate, key, List.of(authority, ownAuthority),
                Map.of(S1, peer));

        assertThat(credentials.peers()).containsOnlyKeys(S1);
        assertThat(credentials.peers().get(S1).certificate()).isEqualTo(GW_S1.certificate());
    }

    @Test
    void aPeerCertificateFromAnUntrustedAuthorityOrForAnotherSiteIsNamed() {
        assertThatThrownBy(() -> TestPki.credentials(S2, GW_S2, Map.of(S1, ROGUE_S1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the certificate of peer site s1").hasMessageContaining("not from a trusted");
        assertThatThrownBy(() -> TestPki.credentials(S2, GW_S2, Map.of(S1, GW_S3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the certificate of peer site s1").hasMessageContaining("is for site s3");
    }

    @Test
    void anOwnCertificateForAnotherSiteOrAKeyNotItsIsNamed() {
        assertThatThrownBy(() -> TestPki.credentials(S1, GW_S3, Map.of(S2, GW_S2)))
                .hasMessageContaining("this gateway's certificate").hasMessageContaining("is for site s3");
        assertThatThrownBy(() -> SiteCredentials.of(S1, GW_S1.certificate(), GW_S2.privateKey(),
                List.of(TestPki.AUTHORITY_S1.certificate(), TestPki.AUTHORITY_S2.certificate()), Map.of()))
                .hasMessageContaining("private key is not that of this gateway's certificate");
    }

    @Test
    void unreadableFilesAreNamedAllAtOnce() {
        assertThatThrownBy(() -> SiteCredentials.read(S1, dir.resolve("missing.crt"), dir.resolve("missing.key"),
                List.of(dir.resolve("ca.crt")), Map.of(S2, dir.resolve("gw-s2.crt"))))
                .hasMessageContaining("missing.crt").hasMessageContaining("missing.key")
                .hasMessageContaining("ca.crt").hasMessageContaining("gw-s2.crt");
    }
}

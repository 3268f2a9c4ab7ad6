package kr.c4i.gateway.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteDirectoryTest {

    private static final Duration YEAR = Duration.ofDays(365);

    @TempDir
    Path dir;

    @Test
    void issuedHoldersReadBackAsIdentitiesAndStoresOfTheSameAuthority() throws Exception {
        SiteDirectory created = SiteDirectory.create(dir, "s1", YEAR);
        created.issue(IdentityRequest.loopback("a"), YEAR);
        SiteDirectory.HolderFiles b = created.issue(IdentityRequest.loopback("b"), YEAR);

        SiteDirectory opened = SiteDirectory.open(dir);
        Identity identity = opened.identity("b");
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(b.tls().keyStore())) {
            keyStore.load(in, password(b));
        }

        assertThat(opened.holders()).containsExactly("a", "b");
        assertThat(opened.authority().certificate()).isEqualTo(created.authority().certificate());
        identity.certificate().verify(opened.authority().certificate().getPublicKey());
        assertThat(keyStore.getKey(Identity.KEY_ALIAS, password(b))).isEqualTo(identity.privateKey());
        assertThat(b.certificate()).isEqualTo(dir.resolve("b").resolve(SiteDirectory.CERTIFICATE));
        assertThat(opened.authority().site()).isEqualTo("s1");
    }

    @Test
    void aSecondAuthorityInTheSameDirectoryIsRefusedAndAMissingOneNamed() {
        SiteDirectory.create(dir, "s1", YEAR);

        assertThatThrownBy(() -> SiteDirectory.create(dir, "s1", YEAR)).hasMessageContaining("already holds");
        assertThatThrownBy(() -> SiteDirectory.open(dir.resolve("nowhere"))).hasMessageContaining("nowhere");
        assertThatThrownBy(() -> SiteDirectory.open(dir).identity("zz")).hasMessageContaining("'zz'");
        assertThatThrownBy(() -> SiteDirectory.open(dir).identity("../x")).hasMessageContaining("'../x'");
    }

    private static char[] password(SiteDirectory.HolderFiles files) throws Exception {
        return Files.readString(files.tls().passwordFile()).strip().toCharArray();
    }
}

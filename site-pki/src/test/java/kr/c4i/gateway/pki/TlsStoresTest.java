package kr.c4i.gateway.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsStoresTest {

    private static final Duration DAY = Duration.ofDays(1);

    @TempDir
    Path dir;

    @Test
    void storesOpenWithThePasswordInTheirFileWhichOnlyTheOwnerReads() throws Exception {
        SiteAuthority s1 = SiteAuthority.create("s1", DAY);
        SiteAuthority s2 = SiteAuthority.create("s2", DAY);
        Identity gateway = s1.issue(IdentityRequest.loopback("gw1"), DAY);

        TlsStores stores = TlsStores.write(gateway, this.dir, List.of(s2.certificate()));

        char[] password = Files.readString(stores.passwordFile()).toCharArray();
        KeyStore keys = load(stores.keyStore(), password);
        KeyStore trust = load(stores.trustStore(), password);
        assertThat(keys.getCertificate(Identity.KEY_ALIAS)).isEqualTo(gateway.certificate());
        assertThat(keys.getKey(Identity.KEY_ALIAS, password)).isEqualTo(gateway.privateKey());
        assertThat(Collections.list(trust.aliases())).extracting(trust::getCertificate)
                .containsExactlyInAnyOrder(s1.certificate(), s2.certificate());
        assertThat(stores.keyStore()).hasFileName("gw1.p12");
        for (Path file : List.of(stores.keyStore(), stores.trustStore(), stores.passwordFile())) {
            assertThat(Files.getPosixFilePermissions(file)).as("%s", file)
                    .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        }
    }

    private static KeyStore load(Path file, char[] password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password);
        }
        return store;
    }
}

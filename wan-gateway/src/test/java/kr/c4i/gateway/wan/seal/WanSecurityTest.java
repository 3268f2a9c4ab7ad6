package kr.c4i.gateway.wan.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.wan.config.WanSecurityProperties;

/** The gateway starts with sealed frames or, asked explicitly, plain ones; never by default, never with both. */
class WanSecurityTest {

    @Test
    void withNeitherAnIdentityNorPlainTheGatewayDoesNotStartAndSaysWhatToSet() {
        assertThatThrownBy(() -> WanSecurity.credentials(
                new WanSecurityProperties(false, null, null, List.of(), Map.of()), TestPki.S1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("gateway.wan.security.certificate")
                .hasMessageContaining("gateway.wan.security.plain=true");
    }

    @Test
    void plainFramesAreTakenOnlyWhenAskedForAndNeverBesideAnIdentity() {
        assertThat(WanSecurity.credentials(new WanSecurityProperties(true, null, null, List.of(), Map.of()),
                TestPki.S1)).isNull();
        assertThatThrownBy(() -> WanSecurity.credentials(new WanSecurityProperties(true, Path.of("gw-s1.crt"),
                Path.of("gw-s1.key"), List.of(), Map.of()), TestPki.S1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("are both set");
    }
}

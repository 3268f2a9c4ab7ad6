package kr.c4i.gateway.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.InvalidSettingsException;

class ParticipantSettingsTest {

    @Test
    void theLeaseIsCyclonesUnlessSetAndIsKeptByToBuilder() {
        assertThat(ParticipantSettings.defaults().discovery().lease()).isNull();
        assertThat(ParticipantSettings.defaults().discovery().effectiveLease()).isEqualTo(Duration.ofSeconds(10));
        ParticipantSettings shorter = ParticipantSettings.builder().lease(Duration.ofSeconds(5)).build();
        assertThat(shorter.discovery().effectiveLease()).isEqualTo(Duration.ofSeconds(5));
        assertThat(shorter.toBuilder().domainId(3).build().discovery().lease()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aLeaseOutOfRangeIsRefusedNamingIt() {
        assertRefused(ParticipantSettings.builder().lease(Duration.ZERO), "lease",
                "lease must be positive, was PT0S");
        assertRefused(ParticipantSettings.builder().lease(Duration.ofMillis(999)), "lease",
                "lease must be 1..60 s, was PT0.999S");
        assertRefused(ParticipantSettings.builder().lease(Duration.ofSeconds(61)), "lease",
                "lease must be 1..60 s, was PT1M1S");
        assertThat(ParticipantSettings.builder().lease(Duration.ofSeconds(1)).build().discovery().lease())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(ParticipantSettings.builder().lease(Duration.ofSeconds(60)).build().discovery().lease())
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void announcementsMustComeWithinTheLeaseInEffect() {
        assertRefused(ParticipantSettings.builder().announceInterval(Duration.ofSeconds(10)), "announceInterval",
                "announceInterval must be shorter than the lease (PT10S), or peers expire between announcements; "
                        + "was PT10S");
        assertRefused(ParticipantSettings.builder().lease(Duration.ofSeconds(5))
                .announceInterval(Duration.ofSeconds(5)), "announceInterval", "announceInterval must be shorter than the lease (PT5S), or peers expire "
                        + "between announcements; was PT5S");
        assertThat(ParticipantSettings.builder().lease(Duration.ofSeconds(30)).announceInterval(Duration.ofSeconds(20))
                .build().discovery().announceInterval()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aMulticastGroupMustBeAnIpv4MulticastLiteral() {
        for (String refused : List.of("10.0.0.1", "240.0.0.1", "239.255.0", "239.255.0.256", "239.255.0.1.2",
                "239.255..1", "mcast.example", "ff02::1", "239.255.0.+1")) {
            assertRefused(ParticipantSettings.builder().multicastAddress(refused), "multicastAddress",
                    "multicastAddress must be an IPv4 multicast group, 224.0.0.0 to 239.255.255.255 (a site's own: "
                            + "239.255.x.y), was '" + refused + "'");
        }
        assertThat(ParticipantSettings.builder().multicastAddress(" 239.255.0.9 ").build().network().multicastAddress())
                .isEqualTo("239.255.0.9");
        assertThat(ParticipantSettings.builder().multicastAddress("224.0.0.0").build().network().multicastAddress())
                .isEqualTo("224.0.0.0");
        assertThat(ParticipantSettings.builder().multicastAddress("").build().network().multicastAddress()).isNull();
    }

    private static void assertRefused(ParticipantSettings.Builder builder, String setting, String message) {
        assertThatThrownBy(builder::build).isInstanceOfSatisfying(InvalidSettingsException.class,
                ex -> assertThat(ex.problems()).extracting(InvalidSettingsException.Problem::setting)
                        .containsExactly(setting))
                .hasMessage(message);
    }
}

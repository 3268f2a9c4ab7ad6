package kr.c4i.gateway.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

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

    private static void assertRefused(ParticipantSettings.Builder builder, String setting, String message) {
        assertThatThrownBy(builder::build).isInstanceOfSatisfying(InvalidSettingsException.class,
                ex -> assertThat(ex.problems()).extracting(InvalidSettingsException.Problem::setting)
                        .containsExactly(setting))
                .hasMessage(message);
    }
}

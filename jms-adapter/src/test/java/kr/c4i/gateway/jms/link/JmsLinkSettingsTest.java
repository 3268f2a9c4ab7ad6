package kr.c4i.gateway.jms.link;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.jms.JmsTransportSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class JmsLinkSettingsTest {

    private static final JmsTransportSettings.Embedded EMBEDDED =
            JmsTransportSettings.Embedded.at("0.0.0.0", 61617, Path.of("data", "wan"));

    private static JmsLinkSettings budget(long bytesPerSecond) {
        return JmsLinkSettings.of(SiteId.of("s1"), "gateway", "pw", EMBEDDED, bytesPerSecond);
    }

    @Test
    void windowsHoldOneSecondOfTheBudget() {
        // 128 kbit/s: Artemis's default 1 MiB producer window would be a minute of it.
        JmsLinkSettings.Windows windows = budget(16_000).windows();

        assertThat(windows).isEqualTo(new JmsLinkSettings.Windows(16_000, 16_000, 16_000));
        assertThat(budget(1_250_000).windows().producerWindowBytes()).isEqualTo(1_250_000);
    }

    @Test
    void windowsAreNeverTinyNorBeyondAnInt() {
        assertThat(budget(300).windows()).isEqualTo(new JmsLinkSettings.Windows(1024, 1024, 1024));
        assertThat(budget(10_000_000_000L).windows().confirmationWindowBytes()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void namesEveryBadSetting() {
        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> new JmsLinkSettings(SiteId.of("s1"), null, " ", "",
                        new JmsTransportSettings.Embedded("127.0.0.1", 0, Path.of("d"), true, Duration.ofMillis(100),
                                Duration.ofSeconds(5), 1),
                        Map.of(SiteId.of("s1"), JmsLinkSettings.Peer.at("tcp://h:1"),
                                SiteId.of("s3"), new JmsLinkSettings.Peer("", null, null)),
                        "kmtf wan", "kmtf.wan.invalid", 0, Duration.ZERO, Duration.ofSeconds(1)))
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting).containsExactlyInAnyOrder(
                        "embedded.port", "user", "password", "peers.s1", "peers.s3.url", "queuePrefix",
                        "budgetBytesPerSecond", "reconnectBackoff"))
                .withMessageStartingWith("Invalid JMS link settings: ");
    }

    @Test
    void invalidQueueMustNotLookLikeASitesQueue() {
        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> budget(16_000).withQueues("kmtf.wan.", "kmtf.wan.invalid"))
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("invalidQueue"))
                .withMessageContaining("invalidQueue 'kmtf.wan.invalid' must not start with queuePrefix 'kmtf.wan.', "
                        + "where it could clash with a site's queue");
    }

    @Test
    void theLongestReconnectBackoffIsNotShorterThanTheFirst() {
        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> budget(16_000).withReconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("maxReconnectBackoff"))
                .withMessage("Invalid JMS link settings: maxReconnectBackoff (PT1S) must not be shorter than "
                        + "reconnectBackoff (PT2S)");
    }

    @Test
    void anExternalBrokerNeedsAValidUrlAndNoEmbeddedOne() {
        JmsLinkSettings external = new JmsLinkSettings(SiteId.of("s1"), "tcp://broker:61616", "gateway", "pw", null,
                Map.of(), JmsLinkSettings.DEFAULT_QUEUE_PREFIX, JmsLinkSettings.DEFAULT_INVALID_QUEUE, 16_000,
                Duration.ofMillis(500), Duration.ofSeconds(10));
        assertThat(external.embeddedBroker()).isFalse();

        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> budget(16_000).withBrokerUrl("nope://x"))
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("brokerUrl"));
        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> new JmsLinkSettings(SiteId.of("s1"), null, "gateway", "pw", null, Map.of(),
                        JmsLinkSettings.DEFAULT_QUEUE_PREFIX, JmsLinkSettings.DEFAULT_INVALID_QUEUE, 16_000,
                        Duration.ofMillis(500), Duration.ofSeconds(10)))
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("embedded"));
    }

    @Test
    void passwordsNeverShow() {
        JmsLinkSettings settings = budget(16_000).withPeers(Map.of(SiteId.of("s2"),
                new JmsLinkSettings.Peer("tcp://s2:61616?sslEnabled=true&trustStorePassword=ts-secret", "u",
                        "peer-secret")));

        assertThat(settings.toString()).doesNotContain("peer-secret").doesNotContain("pw,");
        assertThat(Frames.masked("tcp://s2:61616?sslEnabled=true&trustStorePassword=ts-secret&x=1"))
                .isEqualTo("tcp://s2:61616?sslEnabled=true&trustStorePassword=******&x=1");
    }
}

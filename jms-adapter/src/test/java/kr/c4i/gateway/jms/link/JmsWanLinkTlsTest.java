package kr.c4i.gateway.jms.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.TlsFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code jms} WAN link over mutual TLS between two sites, each with its own authority, each trusting both: frames
 * cross; a gateway whose certificate comes from an authority the peer does not trust never gets a frame in.
 */
class JmsWanLinkTlsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final SiteId S1 = SiteId.of("s1");
    private static final SiteId S2 = SiteId.of("s2");

    @TempDir
    Path tempDir;

    private LinkSites sites;

    @AfterEach
    void closeSites() {
        if (this.sites != null) {
            this.sites.close();
        }
    }

    @Test
    void framesCrossBetweenSitesOfTwoAuthoritiesThatTrustEachOther() throws Exception {
        TlsFixture ca1 = new TlsFixture("s1", this.tempDir);
        TlsFixture ca2 = new TlsFixture("s2", this.tempDir);
        Map<String, BrokerTls> tls = Map.of("s1", ca1.loopback("s1", ca2.authority()),
                "s2", ca2.loopback("s2", ca1.authority()));
        this.sites = new LinkSites(this.tempDir, "s1", "s2").withTls(tls::get);
        RecordingFrameHandler h1 = new RecordingFrameHandler();
        RecordingFrameHandler h2 = new RecordingFrameHandler();
        JmsWanLink s1 = this.sites.open("s1", h1);
        JmsWanLink s2 = this.sites.open("s2", h2);
        await().atMost(TIMEOUT).until(() -> s1.state(S2) == LinkState.UP && s2.state(S1) == LinkState.UP);

        s1.send(S2, bytes("to s2"));
        s2.send(S1, bytes("to s1"));

        await().atMost(TIMEOUT).until(() -> h2.frames().size() == 1 && h1.frames().size() == 1);
        assertThat(h2.bytesFrom("s1")).containsExactly(bytes("to s2"));
        assertThat(h1.bytesFrom("s2")).containsExactly(bytes("to s1"));
    }

    @Test
    void aGatewayCertifiedByAnAuthorityThePeerDoesNotTrustGetsNoFrameIn() throws Exception {
        TlsFixture ca1 = new TlsFixture("s1", this.tempDir);
        TlsFixture unknown = new TlsFixture("s2", this.tempDir);
        // s2 trusts s1's broker, but s1 trusts only its own authority.
        Map<String, BrokerTls> tls = Map.of("s1", ca1.loopback("s1"), "s2", unknown.loopback("s2", ca1.authority()));
        this.sites = new LinkSites(this.tempDir, "s1", "s2").withTls(tls::get);
        RecordingFrameHandler h1 = new RecordingFrameHandler();
        JmsWanLink s1 = this.sites.open("s1", h1);
        JmsWanLink s2 = this.sites.open("s2", new RecordingFrameHandler());

        await().during(Duration.ofSeconds(3)).atMost(TIMEOUT).until(() -> s2.state(S1) != LinkState.UP);
        assertThatExceptionOfType(TransportUnavailableException.class).isThrownBy(() -> s2.send(S1, bytes("in")));
        assertThat(h1.frames()).isEmpty();
        assertThat(s1.state(S2)).isNotEqualTo(LinkState.UP);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

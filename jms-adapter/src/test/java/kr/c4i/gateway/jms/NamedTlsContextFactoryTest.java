package kr.c4i.gateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Path;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextConfig;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextFactoryProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS context behind an announced connector's name: this process's identity of that trust, or nothing. */
class NamedTlsContextFactoryTest {

    @TempDir
    Path tempDir;

    @Test
    void artemisUsesThisFactory() {
        assertThat(SSLContextFactoryProvider.getSSLContextFactory()).isInstanceOf(NamedTlsContextFactory.class);
    }

    @Test
    void holdersOfOneTrustShareANameAndOneTrustingMoreHasAnother() {
        TlsFixture site = new TlsFixture("s1", this.tempDir);
        TlsFixture other = new TlsFixture("s2", this.tempDir);
        String name = site.loopback("a").contextName();

        assertThat(name).startsWith(NamedTlsContextFactory.PREFIX).isEqualTo(site.loopback("b").contextName());
        assertThat(site.loopback("c", other.authority()).contextName()).isNotEqualTo(name);
        assertThat(other.loopback("d").contextName()).isNotEqualTo(name);
    }

    @Test
    void aNameRegisteredHereGivesThisProcesssIdentity() throws Exception {
        BrokerTls tls = new TlsFixture("s1", this.tempDir).loopback("a");
        String name = NamedTlsContextFactory.register(tls);

        SSLContext context = new NamedTlsContextFactory().getSSLContext(SSLContextConfig.builder().build(),
                Map.of(TransportConstants.SSL_CONTEXT_PROP_NAME, name));

        assertThat(context.getProtocol()).isEqualTo("TLS");
        assertThat(context.createSSLEngine().getSupportedProtocols()).contains("TLSv1.3");
    }

    @Test
    void aNameNoHolderHereHasIsRefusedRatherThanConnectingWithoutIdentity() {
        String foreign = new TlsFixture("s9", this.tempDir).loopback("z").contextName();

        assertThatIllegalStateException().isThrownBy(() -> new NamedTlsContextFactory().getSSLContext(
                SSLContextConfig.builder().build(), Map.of(TransportConstants.SSL_CONTEXT_PROP_NAME, foreign)))
                .withMessageStartingWith("No TLS identity trusting the authorities named " + foreign);
    }
}

package kr.c4i.gateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
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
    void aNamedContextIsMadeOnceAndAgainWhenItsKeyStoreIsReplaced() throws Exception {
        TlsFixture site = new TlsFixture("s1", this.tempDir);
        Map<String, Object> named = Map.of(TransportConstants.SSL_CONTEXT_PROP_NAME,
                NamedTlsContextFactory.register(site.loopback("a")));
        NamedTlsContextFactory factory = new NamedTlsContextFactory();

        SSLContext first = factory.getSSLContext(SSLContextConfig.builder().build(), named);
        assertThat(factory.getSSLContext(SSLContextConfig.builder().build(), named)).isSameAs(first);

        site.loopback("a");
        assertThat(factory.getSSLContext(SSLContextConfig.builder().build(), named)).isNotSameAs(first);
    }

    @Test
    void aContextFromStorePathsIsMadeOnceAndAgainWhenAStoreChanges() throws Exception {
        TlsFixture site = new TlsFixture("s1", this.tempDir);
        BrokerTls tls = site.loopback("b");
        String password = BrokerTls.readPassword(tls.keyStorePasswordFile());
        SSLContextConfig config = SSLContextConfig.builder().keystorePath(tls.keyStore().toString())
                .keystoreType(BrokerTls.STORE_TYPE).keystorePassword(password)
                .truststorePath(tls.trustStore().toString()).truststoreType(BrokerTls.STORE_TYPE)
                .truststorePassword(password).build();
        NamedTlsContextFactory factory = new NamedTlsContextFactory();

        SSLContext first = factory.getSSLContext(config, Map.of());
        assertThat(factory.getSSLContext(SSLContextConfig.builder().from(config).build(), Map.of())).isSameAs(first);
        assertThat(factory.getSSLContext(config, Map.of(TransportConstants.USE_DEFAULT_SSL_CONTEXT_PROP_NAME, true)))
                .isSameAs(SSLContext.getDefault());

        // Written again (same password, so the config still opens it): a later modification time.
        Files.setLastModifiedTime(tls.trustStore(), FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(factory.getSSLContext(config, Map.of())).isNotSameAs(first);
    }

    @Test
    void aNameNoHolderHereHasIsRefusedRatherThanConnectingWithoutIdentity() {
        String foreign = new TlsFixture("s9", this.tempDir).loopback("z").contextName();

        assertThatIllegalStateException().isThrownBy(() -> new NamedTlsContextFactory().getSSLContext(
                SSLContextConfig.builder().build(), Map.of(TransportConstants.SSL_CONTEXT_PROP_NAME, foreign)))
                .withMessageStartingWith("No TLS identity trusting the authorities named " + foreign);
    }
}

package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import javax.net.ssl.SSLContext;

import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.remoting.impl.ssl.DefaultSSLContextFactory;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextConfig;
import org.apache.activemq.artemis.spi.core.remoting.ssl.SSLContextFactory;
import org.apache.activemq.artemis.utils.ConfigurationHelper;
import org.jspecify.annotations.Nullable;

/**
 * Artemis's TLS contexts, with one addition: a connector whose {@code sslContext} parameter is a
 * {@linkplain BrokerTls#contextName() trust name} gets this process's own identity of that trust. Artemis sends a
 * pair's connectors, every parameter included, to each client and to the partner broker; so those connectors carry
 * the name instead of store paths and passwords ({@link BrokerTls#announcedConnectorParameters()}), and whoever
 * connects through them looks the name up here. Any other connector or acceptor gets Artemis's default context.
 *
 * <p>Artemis finds its factory through {@link java.util.ServiceLoader} and takes the one of highest priority, so the
 * registry is the process's: a {@link BrokerTls} registers itself whenever it configures a connector. Every holder
 * of one trust name is as good as another for connecting (the name says whom it trusts, and any identity that trust
 * issued is accepted), so the last one registered serves.
 *
 * <p>Either way a context is made once and kept until one of the files it was read from changes ({@link
 * TlsContextCache}), as Artemis asks again on every connection attempt.
 */
public final class NamedTlsContextFactory implements SSLContextFactory {

    static final String PREFIX = "kmtf-trust-";

    // Above Artemis's default (5), so Artemis uses this factory.
    private static final int PRIORITY = 100;

    private static final ConcurrentMap<String, BrokerTls> HOLDERS = new ConcurrentHashMap<>();

    private final SSLContextFactory fallback = new DefaultSSLContextFactory();

    private final TlsContextCache contexts = new TlsContextCache();

    /** Registers {@code tls} under its trust name, which it returns. */
    static String register(BrokerTls tls) {
        String name = tls.contextName();
        HOLDERS.put(name, tls);
        return name;
    }

    @Override
    public SSLContext getSSLContext(SSLContextConfig config, Map<String, Object> parameters) throws Exception {
        Object name = parameters.get(TransportConstants.SSL_CONTEXT_PROP_NAME);
        if (name instanceof String trustName && trustName.startsWith(PREFIX)) {
            BrokerTls holder = HOLDERS.get(trustName);
            if (holder == null) {
                // Fails closed: Artemis's default would connect with the JDK's trust and no client identity.
                throw new IllegalStateException("No TLS identity trusting the authorities named " + trustName
                        + " in this process: the broker announcing this connector trusts other authorities than "
                        + "this process's trust store holds");
            }
            return this.contexts.get(holder, Arrays.asList(holder.keyStore(), holder.keyStorePasswordFile(),
                    holder.trustStore(), holder.effectiveTrustStorePasswordFile()), holder::clientContext);
        }
        // Artemis makes the context from the config (passwords included) and this flag alone.
        boolean useDefault = ConfigurationHelper.getBooleanProperty(
                TransportConstants.USE_DEFAULT_SSL_CONTEXT_PROP_NAME, false, parameters);
        return this.contexts.get(List.of(config, useDefault), Arrays.asList(path(config.getKeystorePath()),
                path(config.getTruststorePath()), path(config.getCrlPath())),
                () -> this.fallback.getSSLContext(config, parameters));
    }

    @Override
    public void clearSSLContexts() {
        this.contexts.clear();
    }

    private static @Nullable Path path(@Nullable String location) {
        return (location == null || location.isBlank()) ? null : Path.of(location);
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }
}

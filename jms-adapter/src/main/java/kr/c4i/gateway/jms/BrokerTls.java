package kr.c4i.gateway.jms;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * TLS with mutual authentication on every connection to or from an Artemis broker: the broker's acceptor requires a
 * client certificate its trust store (the site's authority) vouches for, and every client (a node's own connections,
 * its bridges to peers, a WAN gateway's connections) presents its own identity and checks the broker's certificate
 * and, with {@code verifyHost}, that it names the host in the URL. Key and trust stores are PKCS #12; their passwords
 * are read from files when a connection or acceptor is configured, so they appear in no command line, URL or log
 * (Artemis masks every {@code *password*} parameter when it prints a connector).
 *
 * @param keyStore PKCS #12 key store with this holder's key and certificate chain; the broker's identity on an
 *        acceptor, the client's on a connection
 * @param keyStorePasswordFile file holding the key store's password (one line; surrounding white space is ignored)
 * @param trustStore PKCS #12 trust store with the authorities whose certificates this holder accepts from the other
 *        end: the site's authority, and on a WAN link the peer sites' authorities too
 * @param trustStorePasswordFile file holding the trust store's password; the key store's password file when
 *        {@code null}
 * @param verifyHost whether a client checks that the broker's certificate names the host it connects to
 */
public record BrokerTls(Path keyStore, Path keyStorePasswordFile, Path trustStore,
        @Nullable Path trustStorePasswordFile, boolean verifyHost) {

    static final String STORE_TYPE = "PKCS12";

    /** Stores that share one password file, host names verified. */
    public static BrokerTls of(Path keyStore, Path trustStore, Path passwordFile) {
        return new BrokerTls(keyStore, passwordFile, trustStore, null, true);
    }

    /**
     * TLS as an operator configures it: the stores when set, plain TCP ({@code null}) only when {@code plainTcp} says
     * so explicitly. Problems are named {@code tls.keyStore}, {@code tls.plainTcp} and so on.
     *
     * @throws InvalidSettingsException when neither the stores nor plain TCP are given, when both are, or when the
     *         stores do not open with their passwords
     */
    public static @Nullable BrokerTls choose(@Nullable Path keyStore, @Nullable Path keyStorePasswordFile,
            @Nullable Path trustStore, @Nullable Path trustStorePasswordFile, boolean verifyHost, boolean plainTcp) {
        boolean material = keyStore != null || keyStorePasswordFile != null || trustStore != null
                || trustStorePasswordFile != null;
        if (plainTcp && material) {
            throw InvalidSettingsException.of("tls.plainTcp", "tls.plainTcp is true but TLS key or trust stores are "
                    + "set too: remove one or the other");
        }
        if (plainTcp) {
            return null;
        }
        if (!material) {
            throw InvalidSettingsException.of("tls.keyStore", "broker connections use TLS unless plain TCP is turned "
                    + "on explicitly: set tls.keyStore, tls.keyStorePasswordFile and tls.trustStore (a node's "
                    + "identity and its site's authority, as PKCS #12), or set tls.plainTcp=true to send credentials "
                    + "and messages in clear");
        }
        List<Problem> problems = new ArrayList<>();
        BrokerTls tls = new BrokerTls(keyStore, keyStorePasswordFile, trustStore, trustStorePasswordFile, verifyHost);
        check("tls.", tls, problems);
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException("Invalid broker TLS settings: ", problems);
        }
        return tls;
    }

    public BrokerTls withVerifyHost(boolean verifyHost) {
        return new BrokerTls(keyStore, keyStorePasswordFile, trustStore, trustStorePasswordFile, verifyHost);
    }

    /** The password file of the trust store: its own, or the key store's. */
    public Path effectiveTrustStorePasswordFile() {
        return (trustStorePasswordFile != null) ? trustStorePasswordFile : keyStorePasswordFile;
    }

    /**
     * Checks that both stores open with their passwords and that the key store holds a key, naming the settings
     * {@code prefix + "keyStore"} and so on.
     */
    public static void check(String prefix, @Nullable BrokerTls tls, List<Problem> problems) {
        if (tls == null) {
            return;
        }
        int before = problems.size();
        requireSet(prefix + "keyStore", tls.keyStore(), problems);
        requireSet(prefix + "keyStorePasswordFile", tls.keyStorePasswordFile(), problems);
        requireSet(prefix + "trustStore", tls.trustStore(), problems);
        if (problems.size() > before) {
            return;
        }
        KeyStore keys = open(prefix + "keyStore", tls.keyStore(), prefix + "keyStorePasswordFile",
                tls.keyStorePasswordFile(), problems);
        KeyStore trust = open(prefix + "trustStore", tls.trustStore(),
                prefix + (tls.trustStorePasswordFile() != null ? "trustStorePasswordFile" : "keyStorePasswordFile"),
                tls.effectiveTrustStorePasswordFile(), problems);
        try {
            if (keys != null && !hasEntry(keys, true)) {
                problems.add(new Problem(prefix + "keyStore", prefix + "keyStore " + tls.keyStore()
                        + " holds no private key: it must hold this holder's key and certificate"));
            }
            if (trust != null && !hasEntry(trust, false)) {
                problems.add(new Problem(prefix + "trustStore", prefix + "trustStore " + tls.trustStore()
                        + " holds no certificate: it must hold the authority of the site (and of peer sites)"));
            }
        }
        catch (GeneralSecurityException ex) {
            problems.add(new Problem(prefix + "keyStore", "cannot read the entries of " + tls.keyStore() + " or "
                    + tls.trustStore() + ": " + ex.getMessage()));
        }
    }

    /** The acceptor's parameters: TLS, the broker's identity, and a client certificate required. */
    Map<String, Object> acceptorParameters() {
        Map<String, Object> parameters = stores();
        parameters.put(TransportConstants.NEED_CLIENT_AUTH_PROP_NAME, true);
        return parameters;
    }

    /**
     * A client's parameters: TLS, the client's identity, and the broker's host name checked. The holder is also
     * registered under its {@linkplain #contextName() context name}, so that this process can connect through a
     * connector another process announced (see {@link #announcedConnectorParameters()}).
     */
    Map<String, Object> connectorParameters() {
        NamedTlsContextFactory.register(this);
        Map<String, Object> parameters = stores();
        parameters.put(TransportConstants.VERIFY_HOST_PROP_NAME, verifyHost);
        return parameters;
    }

    /**
     * The parameters of a connector that Artemis announces to other processes (a pair's brokers are sent to every
     * client and partner in the topology): TLS by context name, without a store's path or password. Whoever connects
     * through it uses its own identity, registered under the same name ({@link NamedTlsContextFactory}).
     */
    Map<String, Object> announcedConnectorParameters() {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put(TransportConstants.SSL_ENABLED_PROP_NAME, true);
        parameters.put(TransportConstants.SSL_CONTEXT_PROP_NAME, NamedTlsContextFactory.register(this));
        parameters.put(TransportConstants.VERIFY_HOST_PROP_NAME, verifyHost);
        return parameters;
    }

    /**
     * The name of the authorities this holder trusts: {@code kmtf-trust-} and a digest of their certificates. Every
     * process of one deployment trusts the same authorities, so the name means the same there: "connect with your own
     * identity and trust"; a process trusting other authorities finds no context of that name and does not connect.
     */
    String contextName() {
        try {
            KeyStore trust = load(trustStore, readPassword(effectiveTrustStorePasswordFile()));
            List<String> certificates = new ArrayList<>();
            for (String alias : Collections.list(trust.aliases())) {
                if (trust.getCertificate(alias) != null) {
                    certificates.add(HexFormat.of().formatHex(trust.getCertificate(alias).getEncoded()));
                }
            }
            Collections.sort(certificates);
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            certificates.forEach((certificate) -> digest.update(certificate.getBytes(StandardCharsets.US_ASCII)));
            return NamedTlsContextFactory.PREFIX + HexFormat.of().formatHex(digest.digest(), 0, 8);
        }
        catch (IOException | GeneralSecurityException ex) {
            throw new IllegalStateException("cannot read the trust store " + trustStore + ": " + ex, ex);
        }
    }

    /** A client's TLS context: this holder's identity and trust, read from the stores now. */
    SSLContext clientContext() throws IOException, GeneralSecurityException {
        String keyPassword = readPassword(keyStorePasswordFile);
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(load(keyStore, keyPassword), keyPassword.toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trustStore, readPassword(effectiveTrustStorePasswordFile())));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(Path store, String password) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keyStore = KeyStore.getInstance(STORE_TYPE);
            keyStore.load(in, password.toCharArray());
            return keyStore;
        }
    }

    /** Adds the client's TLS parameters to a connector (a bridge's, say), replacing any the URL set. */
    public void applyToConnector(TransportConfiguration connector) {
        connector.getParams().putAll(connectorParameters());
    }

    /** Adds the client's TLS parameters to every connector of a connection factory built from a URL. */
    public ActiveMQConnectionFactory applyTo(ActiveMQConnectionFactory factory) {
        for (TransportConfiguration connector : factory.getStaticConnectors()) {
            applyToConnector(connector);
        }
        return factory;
    }

    /** Applies the TLS settings to a factory, or leaves it as it is (plain TCP) when there are none. */
    public static ActiveMQConnectionFactory secure(ActiveMQConnectionFactory factory, @Nullable BrokerTls tls) {
        return (tls == null) ? factory : tls.applyTo(factory);
    }

    private Map<String, Object> stores() {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put(TransportConstants.SSL_ENABLED_PROP_NAME, true);
        parameters.put(TransportConstants.KEYSTORE_TYPE_PROP_NAME, STORE_TYPE);
        parameters.put(TransportConstants.KEYSTORE_PATH_PROP_NAME, keyStore.toAbsolutePath().toString());
        parameters.put(TransportConstants.KEYSTORE_PASSWORD_PROP_NAME, readPassword(keyStorePasswordFile));
        parameters.put(TransportConstants.TRUSTSTORE_TYPE_PROP_NAME, STORE_TYPE);
        parameters.put(TransportConstants.TRUSTSTORE_PATH_PROP_NAME, trustStore.toAbsolutePath().toString());
        parameters.put(TransportConstants.TRUSTSTORE_PASSWORD_PROP_NAME,
                readPassword(effectiveTrustStorePasswordFile()));
        return parameters;
    }

    /**
     * The password in a file, without surrounding white space (a trailing newline, say).
     *
     * @throws IllegalStateException naming the file (never its content) if it cannot be read or is empty
     */
    static String readPassword(Path file) {
        try {
            String password = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (password.isEmpty()) {
                throw new IllegalStateException("password file " + file + " is empty");
            }
            return password;
        }
        catch (IOException ex) {
            throw new IllegalStateException("cannot read password file " + file + ": " + ex, ex);
        }
    }

    private static @Nullable KeyStore open(String storeName, Path store, String passwordName, Path passwordFile,
            List<Problem> problems) {
        String password;
        try {
            password = readPassword(passwordFile);
        }
        catch (IllegalStateException ex) {
            problems.add(new Problem(passwordName, passwordName + ": " + ex.getMessage()));
            return null;
        }
        try {
            return load(store, password);
        }
        catch (IOException | GeneralSecurityException ex) {
            problems.add(new Problem(storeName, storeName + " " + store + " cannot be opened as PKCS #12 with the "
                    + "password in " + passwordFile + ": " + ex));
            return null;
        }
    }

    private static void requireSet(String name, @Nullable Path value, List<Problem> problems) {
        if (value == null) {
            problems.add(new Problem(name, name + " must be set for TLS"));
        }
    }

    private static boolean hasEntry(KeyStore store, boolean key) throws GeneralSecurityException {
        for (String alias : Collections.list(store.aliases())) {
            if (key ? store.isKeyEntry(alias) : store.isCertificateEntry(alias)) {
                return true;
            }
        }
        return false;
    }
}

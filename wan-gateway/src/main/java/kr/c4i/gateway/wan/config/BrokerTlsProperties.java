package kr.c4i.gateway.wan.config;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Mutual TLS on every connection of one of the gateway's brokers (the WAN link's, the LAN side's): a client
 * certificate is required on the acceptor, and every client checks the broker's certificate and host name.
 *
 * @param keyStore PKCS #12 key store with the gateway's key and certificate, presented on both ends
 * @param keyStorePasswordFile file holding the key store's password
 * @param trustStore PKCS #12 trust store with the certificate authorities accepted from the other end: this site's,
 *        and on the WAN link the peer sites' too
 * @param trustStorePasswordFile file holding the trust store's password; the key store's password file when unset
 * @param verifyHost whether the gateway checks that a broker's certificate names the host it connects to
 * @param plainTcp true to run without TLS, credentials and messages in clear; a gateway with neither this nor the
 *        stores does not start
 */
public record BrokerTlsProperties(@Nullable Path keyStore, @Nullable Path keyStorePasswordFile,
        @Nullable Path trustStore, @Nullable Path trustStorePasswordFile, @DefaultValue("true") boolean verifyHost,
        @DefaultValue("false") boolean plainTcp) {
}

package kr.c4i.gateway.jms;

import org.apache.activemq.artemis.core.config.Configuration;

/**
 * Changes the embedded broker's configuration after the transport has built it from the settings and
 * before the broker starts, as Spring Boot's {@code ArtemisConfigurationCustomizer} does. Customizers
 * run last, in the order given, so they can override anything the settings produced.
 */
@FunctionalInterface
public interface EmbeddedBrokerCustomizer {

    void customize(Configuration configuration);
}

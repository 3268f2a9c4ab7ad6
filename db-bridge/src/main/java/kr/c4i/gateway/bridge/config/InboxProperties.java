package kr.c4i.gateway.bridge.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the bridge receives.
 *
 * @param enabled whether this node subscribes and writes its inbox (a send-only node turns it off)
 */
@ConfigurationProperties("gateway.inbox")
public record InboxProperties(@DefaultValue("true") boolean enabled) {
}

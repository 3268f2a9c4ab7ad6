package kr.c4i.gateway.wan.config;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.PairRole;

/**
 * One of the gateway's embedded brokers (the LAN side's, the WAN link's) as one of an Artemis primary/backup pair by
 * replication, one on each gateway of an active/standby pair ({@code gateway.wan.pair.enabled}): both brokers run on
 * both gateways, the backup copies the primary's journal and becomes active when it loses the primary, and the
 * leading gateway, the site's nodes (LAN) and the peer sites' gateways (link) that list both follow the active one.
 *
 * @param role {@code primary} or {@code backup}: what this broker is; its partner is the other. Setting it turns
 *        the pair on; the pair's other properties without it are refused
 * @param partner the other gateway's broker as {@code host:port}, e.g. {@code gw-s1b:61616}
 * @param host the address the partner, the site's nodes or the peer sites reach this broker at; the broker's
 *        {@code embedded.host} when unset, which must then not be a wildcard address
 * @param clusterUser user the two brokers connect to each other as; the broker's {@code user} when unset
 * @param clusterPassword password of {@code cluster-user}; set with it, or neither for the broker's password
 * @param failureCheckPeriod a connection between the two brokers, or from a client, that has received nothing for
 *        this long is taken as lost; it bounds the backup's wait for a primary whose machine is gone without closing
 *        its connections
 * @param connectionTtl how long a broker keeps a silent connection of its partner or of a client; at least
 *        {@code failure-check-period}
 */
public record BrokerPairProperties(@Nullable PairRole role, @Nullable String partner, @Nullable String host,
        @Nullable String clusterUser, @Nullable String clusterPassword,
        @DefaultValue("5s") Duration failureCheckPeriod, @DefaultValue("15s") Duration connectionTtl) {

    /** The pair as the JMS transport takes it, checked with the broker's other settings. */
    public JmsTransportSettings.Pair settings() {
        return new JmsTransportSettings.Pair(role, partner, host, clusterUser, clusterPassword, failureCheckPeriod,
                connectionTtl);
    }
}

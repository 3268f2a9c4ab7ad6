package kr.c4i.gateway.wan.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.StoreLimits;

/**
 * The site this gateway serves and how it relays.
 *
 * @param site this gateway's site, one of {@code gateway.routing.sites}
 * @param nodeId the gateway's own id on the site's LAN (its DDS participant, its JMS node); {@code gw-<site>} when
 *        unset; must not be a node of the routing table
 * @param link the WAN link to the peer sites' gateways: {@code dds}, {@code jms} or {@code norm}
 * @param routes destination site to the peer site that relays towards it, for sites the link does not reach
 *        directly, e.g. {@code gateway.wan.routes.s3=s2}
 * @param catalogue an operator's KMTF catalogue file replacing the shipped one; the shipped catalogue when unset
 * @param frameTarget the size DATA frames are filled to at least: the payload one datagram of the link carries (a
 *        link whose budget carries more in 10 ms gets frames of 10 ms of it, up to its largest frame)
 * @param receiptTimeout how long a DATA frame may go unreceipted by the peer before its messages are sent again,
 *        once the peer receipted a later frame, or has receipted none for as long and the link has delivered all
 *        it held (until then the link repairs, or gives the peer up and everything goes again at once)
 * @param lanBatch the most message bytes handed to the site's LAN at once
 * @param compressFrames whether DATA frames are sent compressed (Deflate with the KMTF dictionary); false measures the
 *        link's own efficiency, as the scenarios' {@code uncompressed} variant does. Frames are read either way
 * @param store the gateway's durable store
 * @param pair this gateway as one of an active/standby pair sharing the store's database
 */
@ConfigurationProperties("gateway.wan")
public record WanProperties(@Nullable String site, @Nullable String nodeId, @DefaultValue("jms") LinkKind link,
        Map<String, String> routes, @Nullable Path catalogue,
        @DefaultValue("1200B") DataSize frameTarget, @DefaultValue("15s") Duration receiptTimeout,
        @DefaultValue("256KB") DataSize lanBatch, @DefaultValue("true") boolean compressFrames,
        @DefaultValue Store store, @DefaultValue Pair pair) {

    public WanProperties {
        routes = routes == null ? Map.of() : Map.copyOf(routes);
    }

    /**
     * The store (the gateway's own PostgreSQL, {@code spring.datasource}), bounded in bytes. At the bound the lowest
     * precedence is refused first: each precedence may fill the store up to its share of {@code maxSize}; a refused
     * message stays with its sender, which offers it again. The shares' defaults are {@link StoreLimits}' constants
     * ({@code "" + constant} is the constant expression an annotation takes), so they are stated once.
     *
     * @param maxSize what the stored messages may take in all, bodies and headers
     * @param routinePercent the share of {@code maxSize} ROUTINE messages may fill
     * @param priorityPercent the share PRIORITY messages may fill
     * @param immediatePercent the share IMMEDIATE messages may fill
     * @param flashPercent the share FLASH messages may fill
     * @param cacheSize how much of what is stored is also kept in memory, so that sending and delivering it reads no
     *        rows; beyond it, and after a restart, messages are read back from the table (0B keeps none)
     */
    public record Store(@DefaultValue("256MB") DataSize maxSize,
            @DefaultValue("" + StoreLimits.DEFAULT_ROUTINE_PERCENT) int routinePercent,
            @DefaultValue("" + StoreLimits.DEFAULT_PRIORITY_PERCENT) int priorityPercent,
            @DefaultValue("" + StoreLimits.DEFAULT_IMMEDIATE_PERCENT) int immediatePercent,
            @DefaultValue("" + StoreLimits.DEFAULT_FLASH_PERCENT) int flashPercent,
            @DefaultValue(RelayStore.DEFAULT_CACHE_SIZE) DataSize cacheSize) {

        /** @throws IllegalArgumentException naming {@code gateway.wan.store.cache-size} if it is negative */
        public Store {
            if (cacheSize.isNegative()) {
                throw new IllegalArgumentException("gateway.wan.store.cache-size must be 0B or more, was " + cacheSize);
            }
        }

        /** The store's bound and tiers, as the relay store takes them. */
        public StoreLimits limits() {
            return new StoreLimits(maxSize.toBytes(), routinePercent, priorityPercent, immediatePercent, flashPercent);
        }
    }

    /**
     * Two gateways of one site, on two machines, sharing the store's database: one leads (its link, its LAN side and
     * its store run), the other waits. Leadership is a lock in the store's database (Spring Integration's
     * {@code JdbcLockRegistry}, table {@code int_lock}) that the leader renews; when it is not renewed for
     * {@code lease}, the standby takes it, ends the old leader's store session if it lingers, and starts. A leader
     * that loses the lock stops its process, so that its supervisor starts it again as the standby.
     *
     * @param enabled whether this gateway is one of a pair; a lone gateway starts at once
     * @param lease how long leadership lasts without renewal: the longest a dead leader's site waits for the standby
     * @param heartbeat how often the leader renews its lease and the standby asks for it
     */
    public record Pair(@DefaultValue("false") boolean enabled, @DefaultValue("5s") Duration lease,
            @DefaultValue("500ms") Duration heartbeat) {

        /** @throws IllegalArgumentException naming the property, if the heartbeat does not fit in the lease twice */
        public Pair {
            if (heartbeat.isNegative() || heartbeat.isZero() || heartbeat.multipliedBy(2).compareTo(lease) > 0) {
                throw new IllegalArgumentException("gateway.wan.pair.heartbeat must be positive and at most half of "
                        + "gateway.wan.pair.lease (" + lease + "), was " + heartbeat);
            }
        }
    }
}

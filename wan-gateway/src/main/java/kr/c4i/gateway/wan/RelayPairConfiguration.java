package kr.c4i.gateway.wan;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Executor;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.wan.config.WanProperties;
import kr.c4i.gateway.wan.metrics.RelayGauges;
import kr.c4i.gateway.wan.relay.RelayEngine;

/**
 * One gateway of an active/standby pair ({@code gateway.wan.pair.enabled}): Spring Integration's leader election over
 * a lock in the store's database chooses the one that relays; {@link RelayLeadership} starts the relay on it.
 * Both gateways must be of the same site: the store's {@link kr.c4i.gateway.jdbc.DatabaseOwner} refuses any other.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("gateway.wan.pair.enabled")
class RelayPairConfiguration {

    /** The lock region in {@code int_lock}: the table holds only this gateway pair's lock, named by its role. */
    static final String REGION = "wan-gateway";

    /** The election's lifecycle phase (Spring Integration's default): late, after the web server and the store. */
    static final int ELECTION_PHASE = Integer.MAX_VALUE - 1000;

    @Bean
    @DependsOnDatabaseInitialization
    DefaultLockRepository relayLockRepository(DataSource dataSource) {
        // Its own random client id: one derived from the process (as the candidate's) would be the same for two
        // gateways in one JVM, and the lock would count both as its holder.
        DefaultLockRepository repository = new DefaultLockRepository(dataSource);
        repository.setRegion(REGION);
        return repository;
    }

    @Bean
    JdbcLockRegistry relayLockRegistry(DefaultLockRepository relayLockRepository, WanProperties wan) {
        return new JdbcLockRegistry(relayLockRepository, wan.pair().lease());
    }

    @Bean
    LockRegistryLeaderInitiator relayLeaderInitiator(JdbcLockRegistry relayLockRegistry, SiteId site,
            WanProperties wan) {
        LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(relayLockRegistry,
                new DefaultCandidate(candidateId(), role(site)));
        initiator.setHeartBeatMillis(wan.pair().heartbeat().toMillis());
        initiator.setPhase(ELECTION_PHASE);
        return initiator;
    }

    @Bean
    RelayStandby relayStandby(RelayEngine engine) {
        // The phase from a constant, not from the initiator bean: depending on that bean would have the context start
        // the election first, and a gateway lead before its brokers run.
        return new RelayStandby(engine, ELECTION_PHASE - 1);
    }

    @Bean
    RelayLeadership relayLeadership(SiteId site, RelayEngine engine, RelayLifecycle relayLifecycle,
            MeterRegistry registry, ConfigurableApplicationContext context) {
        Executor starter = start -> Thread.ofPlatform().name("wan-relay-start").start(start);
        Runnable leave = () -> Thread.ofPlatform().name("wan-leadership-exit")
                .start(() -> System.exit(SpringApplication.exit(context, () -> RelayLeadership.EXIT_LEADERSHIP_LOST)));
        RelayLeadership leadership = new RelayLeadership(site, relayLifecycle, registry, starter, leave);
        RelayGauges.registerPairReady(registry, site, engine, leadership::leading);
        return leadership;
    }

    /** The role both gateways of the site's pair compete for. */
    static String role(SiteId site) {
        return "relay-" + site.value();
    }

    /** This process, as the election's logs name it: its PID and host. */
    private static String candidateId() {
        return ManagementFactory.getRuntimeMXBean().getName();
    }
}

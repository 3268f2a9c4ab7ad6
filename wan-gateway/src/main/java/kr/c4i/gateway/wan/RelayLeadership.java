package kr.c4i.gateway.wan;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * Starts the relay when Spring Integration's leader election grants this gateway its pair's leadership, and ends the
 * process when leadership is lost or the relay cannot start, so that its supervisor starts it again as the standby
 * and the other gateway leads. Not {@code SmartLifecycleRoleController}: it logs a failed start and carries on, which
 * would leave the site with a leader that relays nothing.
 * <p>
 * The relay starts on a thread of its own, not the election's: the election renews the lease on that thread, and a
 * start that outlasts the lease (a JMS gateway's relay waits for its brokers, a new leader for its predecessor's store
 * session) would let the standby take a lease its leader still holds, and the leader would then leave.
 */
final class RelayLeadership implements ApplicationListener<ApplicationEvent> {

    /** The process's exit code when it gives up leadership: EX_TEMPFAIL, "try again", for its supervisor. */
    static final int EXIT_LEADERSHIP_LOST = 75;

    private static final Logger log = LoggerFactory.getLogger(RelayLeadership.class);

    private final SiteId site;
    private final SmartLifecycle relay;
    private final Runnable leave;
    private final Counter takeovers;
    private final Executor starter;
    private final AtomicBoolean leading = new AtomicBoolean();
    /** Orders the relay's start and stop: a stop waits for a start under way, a start after a stop does nothing. */
    private final Object relayMonitor = new Object();
    private volatile boolean closing;
    private volatile boolean revoked;

    /**
     * @param relay the relay's lifecycle ({@link RelayLifecycle}), not started by the context
     * @param starter runs the relay's start, off the election's thread
     * @param leave ends the process with {@link #EXIT_LEADERSHIP_LOST}, on a thread of its own
     */
    RelayLeadership(SiteId site, SmartLifecycle relay, MeterRegistry registry, Executor starter, Runnable leave) {
        this.site = site;
        this.relay = relay;
        this.starter = starter;
        this.leave = leave;
        Gauge.builder(MetricNames.WAN_PAIR_LEADER, leading, l -> l.get() ? 1 : 0).tag(MetricNames.TAG_SITE,
                site.value()).description("1 while this gateway leads its pair").register(registry);
        this.takeovers = Counter.builder(MetricNames.WAN_PAIR_TAKEOVERS).tag(MetricNames.TAG_SITE, site.value())
                .description("Leadership of the pair taken").register(registry);
    }

    boolean leading() {
        return leading.get();
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        switch (event) {
            case ContextClosedEvent closed -> {
                // Before the election's lock is released (the context stops it later): the successor then finds the
                // store, the broker's files and the ports free, rather than having to end this gateway's session.
                closing = true;
                stopRelay();
            }
            case OnGrantedEvent granted -> granted();
            case OnRevokedEvent revoked -> revoked();
            default -> {
            }
        }
    }

    private void granted() {
        if (closing) {
            // The election may grant once more while the context stops it; a stopping gateway leads nothing.
            return;
        }
        log.info("This gateway leads site {}'s pair: opening the store and starting the relay", site);
        starter.execute(this::startRelay);
    }

    private void startRelay() {
        synchronized (relayMonitor) {
            if (closing || revoked) {
                return;
            }
            try {
                relay.start();
            }
            catch (RuntimeException ex) {
                log.error("The leader of site {}'s pair could not start the relay ({}): leaving, so that the other "
                        + "gateway leads", site, ex.getMessage(), ex);
                leave.run();
                return;
            }
            leading.set(true);
            takeovers.increment();
        }
    }

    private void stopRelay() {
        synchronized (relayMonitor) {
            leading.set(false);
            if (relay.isRunning()) {
                relay.stop();
            }
        }
    }

    private void revoked() {
        revoked = true;
        boolean was = leading.get();
        stopRelay();
        if (closing) {
            log.info("This gateway of site {} hands its pair's leadership over as it stops", site);
            return;
        }
        log.error("This gateway {} site {}'s pair's leadership (its lease in the store's database was not renewed): "
                + "the relay is stopped and the process exits with {}, to start again as the standby",
                was ? "lost" : "never took", site, EXIT_LEADERSHIP_LOST);
        leave.run();
    }
}

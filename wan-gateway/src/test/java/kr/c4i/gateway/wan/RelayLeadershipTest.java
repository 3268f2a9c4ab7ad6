package kr.c4i.gateway.wan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a gateway of a pair does on each leadership event: the relay starts with leadership, and the process leaves
 * (for its supervisor to start it again as the standby) when leadership is lost or the relay cannot start, but not
 * when it hands leadership over as it stops. The relay starts off the thread that delivers the events, the
 * election's, which must stay free to renew the lease.
 */
class RelayLeadershipTest {

    private static final String ROLE = "relay-s1";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Relay relay = new Relay();
    private final AtomicInteger leaves = new AtomicInteger();
    private final RelayLeadership leadership = new RelayLeadership(SiteId.of("s1"), relay, registry, Runnable::run,
            leaves::incrementAndGet);

    @Test
    void leadershipStartsTheRelayAndIsMetered() {
        leadership.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));

        assertThat(relay.isRunning()).isTrue();
        assertThat(leadership.leading()).isTrue();
        assertThat(registry.get(MetricNames.WAN_PAIR_LEADER).gauge().value()).isEqualTo(1);
        assertThat(registry.get(MetricNames.WAN_PAIR_TAKEOVERS).counter().count()).isEqualTo(1);
        assertThat(leaves).hasValue(0);
    }

    @Test
    void aLeaderWhoseRelayCannotStartLeavesSoThatTheOtherLeads() {
        relay.failing = true;

        leadership.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));

        assertThat(leaves).hasValue(1);
        assertThat(leadership.leading()).isFalse();
        assertThat(registry.get(MetricNames.WAN_PAIR_LEADER).gauge().value()).isZero();
    }

    @Test
    void lostLeadershipStopsTheRelayAndLeaves() {
        leadership.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));

        leadership.onApplicationEvent(new OnRevokedEvent(this, null, ROLE));

        assertThat(relay.isRunning()).isFalse();
        assertThat(leadership.leading()).isFalse();
        assertThat(leaves).hasValue(1);
    }

    @Test
    void leadershipHandedOverAsTheGatewayStopsStopsTheRelayAndStays() {
        leadership.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            leadership.onApplicationEvent(new ContextClosedEvent(context));
        }

        leadership.onApplicationEvent(new OnRevokedEvent(this, null, ROLE));

        assertThat(relay.isRunning()).isFalse();
        assertThat(leaves).hasValue(0);
    }

    @Test
    void theRelayStartsOffTheElectionsThreadWhichStaysFreeToRenewTheLease() throws Exception {
        RelayLeadership offThread = startingOffThread();

        offThread.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));
        assertThat(offThread.leading()).as("leading before the relay has started").isFalse();

        relay.starting.countDown();
        await().atMost(Duration.ofSeconds(10)).until(offThread::leading);
        assertThat(relay.isRunning()).isTrue();
        assertThat(registry.get(MetricNames.WAN_PAIR_TAKEOVERS).counter().count()).isEqualTo(1);
    }

    @Test
    void leadershipLostWhileTheRelayStartsStopsItOnceStartedAndLeaves() throws Exception {
        RelayLeadership offThread = startingOffThread();
        offThread.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));

        Thread election = Thread.ofPlatform().name("election")
                .start(() -> offThread.onApplicationEvent(new OnRevokedEvent(this, null, ROLE)));
        relay.starting.countDown();
        election.join(Duration.ofSeconds(10));

        assertThat(election.isAlive()).as("the revoke still waiting for the start").isFalse();
        assertThat(relay.isRunning()).isFalse();
        assertThat(offThread.leading()).isFalse();
        assertThat(registry.get(MetricNames.WAN_PAIR_LEADER).gauge().value()).isZero();
        assertThat(leaves).hasValue(1);
    }

    @Test
    void aStartStillQueuedWhenLeadershipIsLostNeverStartsTheRelay() {
        List<Runnable> queued = new ArrayList<>();
        RelayLeadership queuing = new RelayLeadership(SiteId.of("s1"), relay, registry, queued::add,
                leaves::incrementAndGet);
        queuing.onApplicationEvent(new OnGrantedEvent(this, null, ROLE));
        queuing.onApplicationEvent(new OnRevokedEvent(this, null, ROLE));

        queued.forEach(Runnable::run);

        assertThat(relay.started).isZero();
        assertThat(queuing.leading()).isFalse();
        assertThat(leaves).hasValue(1);
    }

    /** A leadership that starts the relay on a thread of its own, as shipped, with a relay whose start waits. */
    private RelayLeadership startingOffThread() {
        relay.starting = new CountDownLatch(1);
        return new RelayLeadership(SiteId.of("s1"), relay, registry,
                start -> Thread.ofPlatform().name("relay-start").start(start), leaves::incrementAndGet);
    }

    /** The relay's lifecycle as the leadership sees it: started, stopped, or refusing to start. */
    private static final class Relay implements SmartLifecycle {

        boolean failing;
        /** When set, the start waits for it: a relay waiting for its brokers or its predecessor's store session. */
        volatile @Nullable CountDownLatch starting;
        volatile int started;
        private volatile boolean running;

        @Override
        public void start() {
            if (failing) {
                throw new IllegalStateException("Unable to start the WAN gateway of site s1: link refused");
            }
            CountDownLatch latch = starting;
            if (latch != null) {
                try {
                    latch.await();
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
            }
            started++;
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }
    }
}

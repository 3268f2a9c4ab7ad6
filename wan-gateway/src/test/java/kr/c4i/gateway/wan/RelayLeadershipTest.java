package kr.c4i.gateway.wan;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a gateway of a pair does on each leadership event: the relay starts with leadership, and the process leaves
 * (for its supervisor to start it again as the standby) when leadership is lost or the relay cannot start, but not
 * when it hands leadership over as it stops.
 */
class RelayLeadershipTest {

    private static final String ROLE = "relay-s1";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Relay relay = new Relay();
    private final AtomicInteger leaves = new AtomicInteger();
    private final RelayLeadership leadership = new RelayLeadership(SiteId.of("s1"), relay, registry,
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

    /** The relay's lifecycle as the leadership sees it: started, stopped, or refusing to start. */
    private static final class Relay implements SmartLifecycle {

        boolean failing;
        private boolean running;

        @Override
        public void start() {
            if (failing) {
                throw new IllegalStateException("Unable to start the WAN gateway of site s1: link refused");
            }
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

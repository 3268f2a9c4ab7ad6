package kr.c4i.gateway.wan;

import org.springframework.context.SmartLifecycle;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.wan.relay.RelayEngine;

/**
 * Starts, on both gateways of a pair and before the election, what runs on the standby too: the link's and the LAN
 * side's brokers of primary/backup pairs, so that the standby's hold the leader's journals when it dies. The engine
 * closes them with the rest at shutdown.
 */
final class RelayStandby implements SmartLifecycle {

    private final RelayEngine engine;
    private final int phase;
    private volatile boolean running;

    /** @param phase before the leader election's, so that a gateway leads only with its brokers up */
    RelayStandby(RelayEngine engine, int phase) {
        this.engine = engine;
        this.phase = phase;
    }

    @Override
    public void start() {
        try {
            engine.standBy();
        }
        catch (TransportException ex) {
            throw new IllegalStateException("Unable to start the standby brokers of the WAN gateway of site "
                    + engine.site() + ": " + ex.getMessage(), ex);
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

    @Override
    public int getPhase() {
        return phase;
    }
}

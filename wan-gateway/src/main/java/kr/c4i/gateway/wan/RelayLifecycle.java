package kr.c4i.gateway.wan;

import org.springframework.context.SmartLifecycle;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.wan.relay.RelayEngine;

/** Starts the relay once the context (and Flyway's schema) is ready; stops it first at shutdown. */
final class RelayLifecycle implements SmartLifecycle {

    private final RelayEngine engine;
    private volatile boolean running;

    RelayLifecycle(RelayEngine engine) {
        this.engine = engine;
    }

    @Override
    public void start() {
        try {
            engine.start();
        }
        catch (TransportException ex) {
            throw new IllegalStateException("Unable to start the WAN gateway of site " + engine.site() + ": "
                    + ex.getMessage(), ex);
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        engine.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

package kr.c4i.gateway.wan;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.wan.relay.RelayEngine;

/**
 * Opens the store and starts the relay: once the context (and Flyway's schema) is ready for a lone gateway, when it
 * becomes the leader for one of a pair; stops it first at shutdown.
 */
final class RelayLifecycle implements SmartLifecycle {

    private final RelayEngine engine;
    private final boolean autoStartup;
    private final @Nullable Duration fenceAfter;
    private volatile boolean running;

    /**
     * @param autoStartup false for one of a pair: leadership starts it
     * @param fenceAfter how long a new leader waits for its predecessor's store session to end before ending it;
     *        {@code null} for a lone gateway, which refuses a store another process has open
     */
    RelayLifecycle(RelayEngine engine, boolean autoStartup, @Nullable Duration fenceAfter) {
        this.engine = engine;
        this.autoStartup = autoStartup;
        this.fenceAfter = fenceAfter;
    }

    @Override
    public void start() {
        engine.store().open(fenceAfter);
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

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }
}

package kr.c4i.gateway.bridge;

/**
 * Something the bridge waits for once its transport is open and before it publishes the outbox, e.g. DDS readers
 * of the routes' destinations to match. The context finishes starting, and Spring Boot's readiness state turns to
 * ACCEPTING_TRAFFIC, only after every gate returned: a gate must give up after a bounded wait and report why.
 */
@FunctionalInterface
public interface PublishGate {

    /** Returns when publishing may start, or after the gate's own time limit (reporting what it still misses). */
    void await() throws InterruptedException;
}

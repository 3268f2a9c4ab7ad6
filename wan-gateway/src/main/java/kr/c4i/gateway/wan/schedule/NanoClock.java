package kr.c4i.gateway.wan.schedule;

/**
 * A monotonic nanosecond time source, {@link System#nanoTime()} in service; tests pass a counter they advance, so
 * rates and waits are exact and tests never sleep.
 */
@FunctionalInterface
public interface NanoClock {

    NanoClock SYSTEM = System::nanoTime;

    /** Nanoseconds from an arbitrary origin; only differences mean something. */
    long nanoTime();
}

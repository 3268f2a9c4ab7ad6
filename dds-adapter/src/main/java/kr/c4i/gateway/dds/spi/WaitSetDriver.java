package kr.c4i.gateway.dds.spi;

import java.time.Duration;

/** A binding's wait set with one data-available condition per attached reader. */
public interface WaitSetDriver {

    /** Attaches a condition that triggers while the reader holds samples; {@code token} identifies it. */
    void attach(ReaderDriver<?> reader, int token);

    /**
     * Blocks until a condition triggers, {@link #wakeup} is called or the timeout passes.
     *
     * @return the tokens of the triggered readers; empty on timeout or wake-up
     */
    int[] await(Duration timeout);

    /** Makes a current or the next {@link #await} return at once. */
    void wakeup();

    void close();
}

package kr.c4i.gateway.core.retry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The wait of a loop's thread between its rounds, which another thread can cut short: to stop the loop, or because
 * there is work. A wake before the wait is not lost: the next wait returns at once.
 */
public final class Pause {

    private final Object signal = new Object();
    private boolean woken;

    /**
     * Waits up to {@code pause}, less if woken meanwhile or before; not at all for zero.
     *
     * @return false when the thread was interrupted (its interrupt status set again): the loop should end
     */
    public boolean await(Duration pause) {
        synchronized (signal) {
            try {
                long deadline = System.nanoTime() + pause.toNanos();
                while (!woken) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    TimeUnit.NANOSECONDS.timedWait(signal, left);
                }
                return true;
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
            finally {
                woken = false;
            }
        }
    }

    /** Ends the wait under way, or the next one. */
    public void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }
}

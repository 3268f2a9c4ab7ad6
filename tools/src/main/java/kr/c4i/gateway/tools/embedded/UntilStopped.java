package kr.c4i.gateway.tools.embedded;

import java.util.concurrent.CountDownLatch;

/**
 * A service run by a command until SIGTERM or SIGINT. The JVM halts once its shutdown hooks finish, so the hook itself
 * closes the service, and the command waits for it in {@link #await}.
 */
final class UntilStopped {

    private final CountDownLatch stopped = new CountDownLatch(1);

    private UntilStopped() {
    }

    /**
     * Closes {@code service} at shutdown.
     *
     * @param name the service in the message when it does not stop cleanly, e.g. {@code node a}
     */
    static UntilStopped closing(String name, AutoCloseable service) {
        UntilStopped until = new UntilStopped();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(() -> {
            try {
                service.close();
            }
            catch (Exception ex) {
                System.err.println("Unable to stop " + name + " cleanly: " + ex);
            }
            finally {
                until.stopped.countDown();
            }
        }));
        return until;
    }

    /** Returns once the service is closed. */
    void await() throws InterruptedException {
        stopped.await();
    }
}

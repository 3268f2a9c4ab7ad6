package kr.c4i.gateway.core.link;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportUnavailableException;

/**
 * The open-once, close-once shell of a {@link WanLink}: what the link holds while it is open ({@code O}), whether
 * it may take a frame now, which peer a site names, and its receive thread's end. Every link keeps these the same
 * way and says the same words about them; what it opens differs.
 *
 * @param <O> what exists while the link is open (a participant, an instance, sessions and their thread)
 */
public final class LinkLifecycle<O> {

    /** How long closing waits for the receive thread to return from the frame handler. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** Opens what the link holds while open; throws if it cannot, having released what it took. */
    @FunctionalInterface
    public interface Opener<O> {
        O open() throws TransportException;
    }

    /** A step of starting the link that may fail. */
    @FunctionalInterface
    public interface Step {
        void run() throws TransportException;
    }

    private final String kind;
    private final SiteId site;
    private final Object lock = new Object();
    private @Nullable O open;
    private volatile boolean closed;

    /**
     * @param kind the link's {@link WanLink#kind()}
     * @param site this gateway's site
     */
    public LinkLifecycle(String kind, SiteId site) {
        this.kind = kind;
        this.site = site;
    }

    /**
     * Opens the link once: {@code opener} runs under this shell's lock, so a {@link #close} waits for it.
     *
     * @throws IllegalStateException if the link is closed or already open
     * @throws TransportException what {@code opener} threw; the link stays not open
     */
    public O open(Opener<O> opener) throws TransportException {
        synchronized (this.lock) {
            if (this.closed) {
                throw new IllegalStateException("The " + describe() + " is closed");
            }
            if (this.open != null) {
                throw new IllegalStateException("The " + describe() + " is already open");
            }
            O opened = opener.open();
            this.open = opened;
            return opened;
        }
    }

    /**
     * Runs {@code step} under this shell's lock unless the link is closed: what starts ahead of {@link #open} (a
     * standby's broker), so that a {@link #close} either waits for it or comes first and stops it from starting.
     *
     * @throws IllegalStateException if the link is closed
     * @throws TransportException what {@code step} threw
     */
    public void beforeOpen(Step step) throws TransportException {
        synchronized (this.lock) {
            if (this.closed) {
                throw new IllegalStateException("The " + describe() + " is closed");
            }
            step.run();
        }
    }

    /**
     * What the link holds while open, for a frame to be sent now.
     *
     * @throws TransportUnavailableException if the link is closed or not open yet: the frame was not taken
     */
    public O require() throws TransportUnavailableException {
        O current = this.open;
        if (current == null || this.closed) {
            String why = this.closed ? "closed" : "not open";
            throw new TransportUnavailableException("The " + describe() + " is " + why, null);
        }
        return current;
    }

    /** What the link opened, still there after {@link #close} for its counters; {@code null} before {@link #open}. */
    public @Nullable O current() {
        return this.open;
    }

    public boolean isOpen() {
        return this.open != null && !this.closed;
    }

    public boolean isClosed() {
        return this.closed;
    }

    /**
     * Closes the link once; later calls do nothing. {@code closer} is given what the link held, if it was opened, and
     * runs after the link counts as closed, so no frame is taken while it runs.
     *
     * @return whether this call closed the link: false if it was closed already
     */
    public boolean close(Consumer<O> closer) {
        O current;
        synchronized (this.lock) {
            if (this.closed) {
                return false;
            }
            this.closed = true;
            current = this.open;
        }
        if (current != null) {
            closer.accept(current);
        }
        return true;
    }

    /**
     * The peer {@code site} names among the link's {@code peers}.
     *
     * @throws IllegalArgumentException if it is not one of them
     */
    public <P> P peer(Map<SiteId, P> peers, SiteId site) {
        P found = peers.get(site);
        if (found == null) {
            throw new IllegalArgumentException("Unknown peer site " + site + ": the " + describe() + " reaches "
                    + peers.keySet());
        }
        return found;
    }

    /**
     * @throws IllegalArgumentException if a frame of {@code length} bytes exceeds the link's {@code maxFrameBytes}
     */
    public void checkFrame(int length, int maxFrameBytes) {
        if (length > maxFrameBytes) {
            throw new IllegalArgumentException("A frame of " + length + " bytes exceeds maxFrameBytes ("
                    + maxFrameBytes + ") of the " + this.kind + " WAN link");
        }
    }

    /**
     * Waits up to {@link #CLOSE_WAIT} for the link's receive thread, told to stop, to return from the frame handler;
     * the caller then releases the native objects, under a handler that did not return if it must.
     *
     * @return false if the thread is still in the handler (the caller says so); true if it ended, or is the caller
     */
    public static boolean awaitReceiveThread(Thread thread) {
        if (Thread.currentThread() == thread) {
            return true;
        }
        try {
            return thread.join(CLOSE_WAIT);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return !thread.isAlive();
        }
    }

    private String describe() {
        return this.kind + " WAN link of site " + this.site;
    }
}

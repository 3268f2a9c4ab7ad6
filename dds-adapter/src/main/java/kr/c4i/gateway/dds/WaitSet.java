package kr.c4i.gateway.dds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import kr.c4i.gateway.dds.spi.WaitSetDriver;

/**
 * Lets one thread wait for data on many readers at once. Closing the participant closes it.
 */
public final class WaitSet extends Entity {

    private final WaitSetDriver driver;
    private final List<DataReader<?>> readers = new CopyOnWriteArrayList<>();

    WaitSet(DomainParticipant participant, WaitSetDriver driver) {
        super(participant, "wait set");
        this.driver = driver;
    }

    /**
     * Makes {@link #await} return when {@code reader} holds samples. The reader must belong to the same
     * participant; it may be attached while another thread waits.
     */
    public void attach(DataReader<?> reader) {
        if (reader.participant != this.participant) {
            throw new IllegalArgumentException("The reader belongs to another participant");
        }
        run(() -> {
            synchronized (this.readers) {
                // Listed before the native attach: a waiting thread may see the new token at once.
                int token = this.readers.size();
                this.readers.add(reader);
                try {
                    this.driver.attach(reader.driver(), token);
                }
                catch (RuntimeException ex) {
                    this.readers.remove(token);
                    throw ex;
                }
            }
        });
    }

    /**
     * Blocks until an attached reader holds samples, {@link #wakeup} is called or the timeout passes.
     *
     * @return the readers holding samples; empty on timeout or wake-up
     */
    public List<DataReader<?>> await(Duration timeout) {
        int[] tokens = call(() -> this.driver.await(timeout));
        List<DataReader<?>> ready = new ArrayList<>(tokens.length);
        for (int token : tokens) {
            ready.add(this.readers.get(token));
        }
        return ready;
    }

    /** Makes the current or next {@link #await} return at once; callable from any thread, even after close. */
    public void wakeup() {
        if (!isClosed()) {
            this.driver.wakeup();
        }
    }

    @Override
    void closeDriver() {
        this.driver.close();
    }
}

package kr.c4i.gateway.dds;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.spi.DdsBinding;
import kr.c4i.gateway.dds.spi.ParticipantDriver;

/**
 * Membership of one DDS domain; the factory and owner of topics, writers, readers and wait sets. Closing it closes
 * every child, like {@code dds_delete} on a participant. Thread-safe.
 *
 * <pre>{@code
 * try (DomainParticipant participant = DomainParticipant.create(ParticipantSettings.builder().domainId(7).build())) {
 *     Topic<Ping> topic = participant.createTopic("demo/ping", PING);
 *     DataWriter<Ping> writer = participant.createWriter(topic, Qos.reliable());
 *     writer.write(new Ping("hello", 1));
 * }
 * }</pre>
 */
public final class DomainParticipant implements AutoCloseable {

    final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final ParticipantDriver driver;
    private final String bindingName;
    private final Set<Entity> children = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DomainParticipant(ParticipantDriver driver, String bindingName) {
        this.driver = driver;
        this.bindingName = bindingName;
    }

    /**
     * Joins a domain through the binding the settings name, or the first {@link DdsBinding} that
     * {@link ServiceLoader} finds.
     *
     * @throws IllegalStateException if no binding is available or the named one is not, or if its native library
     *         cannot be loaded
     * @throws DdsException if the binding rejects the configuration
     */
    public static DomainParticipant create(ParticipantSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return create(findBinding(settings.vendor().binding()), settings);
    }

    /** Joins a domain through the given binding, bypassing discovery. */
    public static DomainParticipant create(DdsBinding binding, ParticipantSettings settings) {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(settings, "settings");
        return new DomainParticipant(binding.createParticipant(settings), binding.name());
    }

    /** The bindings on the class path, in {@link ServiceLoader} order. */
    public static List<DdsBinding> availableBindings() {
        List<DdsBinding> found = new ArrayList<>();
        ServiceLoader.load(DdsBinding.class).forEach(found::add);
        if (found.isEmpty()) {
            ServiceLoader.load(DdsBinding.class, DdsBinding.class.getClassLoader()).forEach(found::add);
        }
        return found;
    }

    private static DdsBinding findBinding(@Nullable String name) {
        List<DdsBinding> bindings = availableBindings();
        if (bindings.isEmpty()) {
            throw new IllegalStateException("Unable to find a DDS binding: no " + DdsBinding.class.getName()
                    + " is registered in META-INF/services; add the dds-adapter jar to the class path");
        }
        if (name == null) {
            return bindings.getFirst();
        }
        return bindings.stream().filter(b -> b.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("Unable to find DDS binding '" + name + "'; available: "
                        + bindings.stream().map(DdsBinding::name).toList()));
    }

    /**
     * Creates a topic. Creating the same name twice with the same type gives two handles to one topic.
     *
     * @throws DdsException if the name is taken by another type, or the binding rejects it
     */
    public <T> Topic<T> createTopic(String name, DataType<T> type) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        return register(() -> new Topic<>(this, this.driver.createTopic(name, type), type));
    }

    public <T> DataWriter<T> createWriter(Topic<T> topic, Qos qos) {
        checkOwn(topic);
        Objects.requireNonNull(qos, "qos");
        return register(() -> new DataWriter<>(this, this.driver.createWriter(topic.driver(), qos), topic, qos));
    }

    public <T> DataReader<T> createReader(Topic<T> topic, Qos qos) {
        checkOwn(topic);
        Objects.requireNonNull(qos, "qos");
        return register(() -> new DataReader<>(this, this.driver.createReader(topic.driver(), qos), topic, qos));
    }

    public WaitSet createWaitSet() {
        return register(() -> new WaitSet(this, this.driver.createWaitSet()));
    }

    public int domainId() {
        return this.driver.domainId();
    }

    /** The name of the binding behind this participant, e.g. {@code cyclone}. */
    public String bindingName() {
        return this.bindingName;
    }

    /** Whether the participant is open and its native counterpart still exists. */
    public boolean isAlive() {
        Lock lock = this.lifecycle.readLock();
        lock.lock();
        try {
            return !this.closed && this.driver.alive();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Remote participants DDS Security kept out of this participant's domain since it joined, by reason, each counted
     * once however often it retried. A binding learns of them per domain, so every participant of the domain in this
     * process reports them. See the binding for when each is counted (Cyclone counts a participant whose handshake
     * fails when Cyclone gives up on it, or when it leaves).
     *
     * @throws IllegalStateException if the participant is closed
     */
    public SecurityRefusals securityRefusals() {
        Lock lock = this.lifecycle.readLock();
        lock.lock();
        try {
            if (this.closed) {
                throw new IllegalStateException("The participant is closed");
            }
            return this.driver.securityRefusals();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Remote participants whose authentication handshake with this participant failed and that still announce
     * themselves, by the ids the binding knows them by. A binding that never retries a failed handshake (Cyclone
     * 0.10) leaves such a pair unmatched for as long as both exist; a participant created anew handshakes with every
     * remote participant again. Empty without DDS Security.
     *
     * @throws IllegalStateException if the participant is closed
     */
    public Set<String> failedHandshakes() {
        Lock lock = this.lifecycle.readLock();
        lock.lock();
        try {
            if (this.closed) {
                throw new IllegalStateException("The participant is closed");
            }
            return this.driver.failedHandshakes();
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Announces the participant now (SPDP, to every discovery destination), besides the binding's periodic
     * announcements: a remote participant that missed them, say behind a cut that has just lifted, finds this one at
     * once instead of at the next. Each call costs what a periodic announcement costs on the wire (see
     * {@link ParticipantSettings.Discovery}).
     *
     * @throws IllegalStateException if the participant is closed
     * @throws DdsException if the binding refuses
     */
    public void announce() {
        Lock lock = this.lifecycle.readLock();
        lock.lock();
        try {
            if (this.closed) {
                throw new IllegalStateException("The participant is closed");
            }
            this.driver.announce();
        }
        finally {
            lock.unlock();
        }
    }

    public boolean isClosed() {
        return this.closed;
    }

    /**
     * Closes every child and leaves the domain; waits for calls in flight (a write blocked on a full history ends
     * within its maximum blocking time). Safe to call more than once.
     */
    @Override
    public void close() {
        if (this.closed) {
            return;
        }
        this.children.forEach(child -> {
            if (child instanceof WaitSet waitSet) {
                waitSet.wakeup();
            }
        });
        Lock lock = this.lifecycle.writeLock();
        lock.lock();
        try {
            if (this.closed) {
                return;
            }
            this.closed = true;
            // The native delete removes the whole tree at once, so children are only marked.
            this.children.forEach(Entity::markClosed);
            this.children.clear();
            this.driver.close();
        }
        finally {
            lock.unlock();
        }
    }

    void closeChild(Entity child) {
        if (child.isClosed()) {
            return;
        }
        if (child instanceof WaitSet waitSet) {
            waitSet.wakeup();
        }
        Lock lock = this.lifecycle.writeLock();
        lock.lock();
        try {
            if (!child.isClosed()) {
                child.markClosed();
                this.children.remove(child);
                child.closeDriver();
            }
        }
        finally {
            lock.unlock();
        }
    }

    private <E extends Entity> E register(Supplier<E> factory) {
        Lock lock = this.lifecycle.readLock();
        lock.lock();
        try {
            if (this.closed) {
                throw new IllegalStateException("The participant is closed");
            }
            E entity = factory.get();
            this.children.add(entity);
            return entity;
        }
        finally {
            lock.unlock();
        }
    }

    private void checkOwn(Topic<?> topic) {
        Objects.requireNonNull(topic, "topic");
        if (topic.participant != this) {
            throw new IllegalArgumentException("The topic " + topic.name() + " belongs to another participant");
        }
        if (topic.isClosed()) {
            throw new IllegalStateException("The topic " + topic.name() + " is closed");
        }
    }

    @Override
    public String toString() {
        return "DomainParticipant[" + this.bindingName + ", domain " + this.driver.domainId()
                + (this.closed ? ", closed" : "") + "]";
    }
}

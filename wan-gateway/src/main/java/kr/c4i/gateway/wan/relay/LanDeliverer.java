package kr.c4i.gateway.wan.relay;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.wan.lan.LanDelivery;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.schedule.Backlog;
import kr.c4i.gateway.wan.schedule.Batch;
import kr.c4i.gateway.wan.schedule.PrecedenceScheduler;
import kr.c4i.gateway.wan.schedule.Waiting;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Removal;

/**
 * The one thread that hands what the store holds for this site's own nodes to the LAN side, FLASH first. A message
 * leaves the store once the LAN side says its nodes have it (at once, or later through {@link #delivered}).
 */
final class LanDeliverer implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(LanDeliverer.class);

    /** How long the thread waits for work when it was not woken; what is stored for the LAN wakes it. */
    static final Duration IDLE = Duration.ofMillis(200);

    /**
     * The most messages handed over whose custody has not passed yet: beyond it, a node of this site that stays away
     * would only make the LAN side keep more in memory; the rest waits in the store.
     */
    static final int MAX_PENDING = 10_000;

    private final SiteId site;
    private final LanSide lan;
    private final RelayStore store;
    private final Backlog backlog;
    private final PrecedenceScheduler scheduler;
    private final RelayMetrics metrics;
    private final Clock clock;
    private final int batchBytes;
    private final int maxPending;
    private final Duration idle;
    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0);
    // Handed to the LAN side, custody not passed yet: message id to its stored copy.
    private final Map<String, Waiting> pending = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private boolean signalled;
    private volatile boolean running = true;

    /**
     * @param maxPending the most messages handed over whose custody has not passed yet ({@link #MAX_PENDING})
     * @param idle how long to wait for work unless woken ({@link #IDLE})
     */
    LanDeliverer(SiteId site, LanSide lan, RelayStore store, Backlog backlog, PrecedenceScheduler scheduler,
            RelayMetrics metrics, Clock clock, int batchBytes, int maxPending, Duration idle) {
        this.site = site;
        this.lan = lan;
        this.store = store;
        this.backlog = backlog;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.clock = clock;
        this.batchBytes = batchBytes;
        this.maxPending = maxPending;
        this.idle = idle;
    }

    void wake() {
        lock.lock();
        try {
            signalled = true;
            work.signalAll();
        }
        finally {
            lock.unlock();
        }
    }

    void stop() {
        running = false;
        wake();
    }

    int pending() {
        return pending.size();
    }

    /** The LAN side reports messages that passed custody after {@code deliver} returned. */
    void delivered(Collection<String> messageIds) {
        boolean wasFull = pending.size() >= maxPending;
        List<Waiting> done = new ArrayList<>(messageIds.size());
        for (String id : messageIds) {
            Waiting copy = pending.remove(id);
            if (copy != null) {
                done.add(copy);
            }
        }
        passed(done);
        if (wasFull && pending.size() < maxPending) {
            // The thread stopped handing over at the bound; room again, so it goes on now, not after its idle wait.
            wake();
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (!step()) {
                    await(idle);
                }
            }
            catch (TransportException ex) {
                Duration wait = backoff.next();
                log.warn("This site's LAN did not take relayed messages ({}); trying again in {} ms", ex.getMessage(),
                        wait.toMillis());
                await(wait);
            }
            catch (RuntimeException | SQLException ex) {
                Duration wait = backoff.next();
                log.warn("Delivery to this site's nodes failed, trying again in {} ms: {}", wait.toMillis(),
                        ex.toString(), ex);
                await(wait);
            }
        }
    }

    /** Delivers one batch; whether there was one. */
    private boolean step() throws TransportException, SQLException {
        if (pending.size() >= maxPending) {
            return false;
        }
        Batch batch = scheduler.next(Long.MAX_VALUE, batchBytes);
        if (!batch.expired().isEmpty()) {
            store.remove(batch.expired().stream().map(Waiting::id).toList(), Removal.EXPIRED)
                    .forEach(w -> metrics.dropped("expired", w.precedence(), w.kmtfType()));
        }
        if (batch.copies().isEmpty()) {
            return !batch.expired().isEmpty();
        }
        Map<Long, RelayedEnvelope> loaded = store.load(batch.copies().stream().map(Waiting::id).toList());
        Map<String, Waiting> byMessage = new HashMap<>();
        List<RelayedEnvelope> envelopes = new ArrayList<>(loaded.size());
        for (Waiting copy : batch.copies()) {
            RelayedEnvelope relayed = loaded.get(copy.id());
            if (relayed != null) {
                byMessage.put(relayed.messageId(), copy);
                envelopes.add(relayed);
            }
        }
        LanDelivery delivery;
        try {
            // Registered first: the LAN side may report a message delivered before deliver returns.
            pending.putAll(byMessage);
            delivery = lan.deliver(envelopes);
        }
        catch (TransportException | RuntimeException ex) {
            byMessage.keySet().forEach(pending::remove);
            backlog.putBack(batch.copies());
            throw ex;
        }
        backoff.reset();
        if (!delivery.notTaken().isEmpty()) {
            // The LAN waited for its nodes before it refused these, so they are offered again at once, not backed off.
            backlog.putBack(delivery.notTaken().stream().map(pending::remove).filter(Objects::nonNull).toList());
        }
        List<Waiting> done = new ArrayList<>();
        for (String id : delivery.passed()) {
            Waiting copy = pending.remove(id);
            if (copy != null) {
                done.add(copy);
            }
        }
        delivery.rejected().forEach((id, reason) -> {
            Waiting copy = pending.remove(id);
            if (copy != null) {
                log.error("Message {} ({}) cannot be delivered to the nodes of site {}: {}; dropped", id,
                        copy.kmtfType(), site, reason);
                metrics.dropped("undeliverable", copy.precedence(), copy.kmtfType());
                store.remove(List.of(copy.id()), Removal.dropped("undeliverable: " + reason));
            }
        });
        passed(done);
        return true;
    }

    private void passed(List<Waiting> copies) {
        if (copies.isEmpty()) {
            return;
        }
        store.remove(copies.stream().map(Waiting::id).toList(), Removal.DELIVERED);
        var now = clock.instant();
        for (Waiting copy : copies) {
            metrics.relayed(site, RelayMetrics.Direction.LAN_OUT, copy.precedence(), copy.kmtfType());
            metrics.delivered(copy.precedence(), Duration.between(copy.createdAt(), now));
        }
    }

    private void await(Duration timeout) {
        lock.lock();
        try {
            long left = timeout.toNanos();
            while (!signalled && running && left > 0) {
                left = work.awaitNanos(left);
            }
            signalled = false;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running = false;
        }
        finally {
            lock.unlock();
        }
    }
}

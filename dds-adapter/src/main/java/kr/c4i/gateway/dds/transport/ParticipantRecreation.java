package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import kr.c4i.gateway.dds.internal.BoundedMaps;
import kr.c4i.gateway.dds.transport.DdsTransportSettings.HandshakeRecovery;

/**
 * Decides when the transport recreates its participant for the remote participants whose handshake with it failed
 * and that are still there ({@link kr.c4i.gateway.dds.DomainParticipant#failedHandshakes()}). A failure is acted on
 * once it has lasted the remote participant's wait: {@link HandshakeRecovery#delay()}, doubled for each recreation
 * that remote participant caused before, up to {@link HandshakeRecovery#maxDelay()}; and never sooner than
 * {@link HandshakeRecovery#minInterval()} after the last recreation. Times are {@link System#nanoTime()} readings.
 * Thread-safe.
 */
final class ParticipantRecreation {

    /** Remote participants whose earlier recreations are remembered; the least recently used are forgotten first. */
    static final int MAX_REMEMBERED = 1024;

    private final HandshakeRecovery settings;
    // Since when each remote participant's handshake with the current participant has been seen failed.
    private final Map<String, Long> failedSince = new HashMap<>();
    // Recreations each remote participant caused; the one not looked at for longest is forgotten first.
    private final Map<String, Integer> causedBefore = BoundedMaps.leastRecentlyUsed(MAX_REMEMBERED);
    private long lastRecreation;
    private boolean recreatedOnce;

    ParticipantRecreation(HandshakeRecovery settings) {
        this.settings = settings;
    }

    /**
     * Takes the remote participants whose handshake with the current participant has failed now.
     *
     * @return those whose wait is over, if the participant is to be recreated now; else empty
     */
    synchronized Set<String> due(long now, Set<String> failed) {
        this.failedSince.keySet().retainAll(failed);
        failed.forEach(remote -> this.failedSince.putIfAbsent(remote, now));
        Set<String> due = new TreeSet<>();
        if (!this.settings.enabled() || intervalLeft(now) > 0) {
            return due;
        }
        this.failedSince.forEach((remote, since) -> {
            if (now - since >= wait(remote).toNanos()) {
                due.add(remote);
            }
        });
        return due;
    }

    /** Records that the participant is being recreated for {@code remotes}: its new one has failed with none yet. */
    synchronized void recreating(long now, Set<String> remotes) {
        this.lastRecreation = now;
        this.recreatedOnce = true;
        remotes.forEach(remote -> this.causedBefore.merge(remote, 1, Integer::sum));
        this.failedSince.clear();
    }

    /** How long each remote participant seen failed has left before the participant is recreated for it. */
    synchronized Map<String, Duration> pending(long now) {
        Map<String, Duration> pending = new TreeMap<>();
        this.failedSince.forEach((remote, since) -> {
            long left = Math.max(since + wait(remote).toNanos() - now, intervalLeft(now));
            pending.put(remote, Duration.ofNanos(Math.max(0, left)));
        });
        return pending;
    }

    /** How long a failure with {@code remote} must last: the delay doubled per recreation it caused, bounded. */
    synchronized Duration wait(String remote) {
        int before = Math.min(this.causedBefore.getOrDefault(remote, 0), 30);
        Duration doubled = this.settings.delay().multipliedBy(1L << before);
        return doubled.compareTo(this.settings.maxDelay()) > 0 ? this.settings.maxDelay() : doubled;
    }

    /** Nanoseconds until the least interval since the last recreation is over; 0 or less once it is. */
    private long intervalLeft(long now) {
        return this.recreatedOnce ? this.lastRecreation + this.settings.minInterval().toNanos() - now : 0;
    }
}

package kr.c4i.gateway.dds.cyclone;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.SecurityRefusals;
import kr.c4i.gateway.dds.internal.BoundedMaps;

/**
 * Follows each remote participant of one secured domain from its discovery to authenticated or refused, through
 * Cyclone's log lines, and counts the refused once each by reason. Cyclone 0.10 has no status or listener for a
 * failed handshake; these lines (Cyclone 0.10.2, {@code <p>} a GUID prefix, measured with the governance this project
 * writes) are all it reports:
 * <ul>
 * <li>{@code SPDP ST0 <p>:1c1 bes ffffc3f (secure) NEW ...} (discovery): a participant with DDS Security appeared;
 * its handshake starts.</li>
 * <li>{@code Non secure remote writer <p>:3c2 is not allowed.} (warning): an endpoint of a participant without DDS
 * Security refused. The text has no line end, so it reaches the sink glued to the next discovery line of its
 * thread, which is why a secured domain traces the discovery category ({@link CycloneSecurity#section}).</li>
 * <li>{@code handshake (lguid=<local> rguid=<p>:1c1) succeeded} (discovery).</li>
 * <li>{@code handshake (lguid=<local> rguid=<p>:1c1) failed: (1) Timed out} (error): Cyclone gave up, 100 s after
 * discovery. Until then it resends every second; when its side cannot verify the other's certificate it logs
 * {@code Begin handshake reply failed: Certificate not valid: ...} each time, without the GUID, and when the other
 * side cannot verify its certificate it logs nothing.</li>
 * <li>{@code Could not get remote participant <p>:1c1 permissions from plugin: ...} (error),
 * {@code Plugin does not allow remote participant <p>:1c1} and {@code Remote secure participant <p>:1c1 not allowed}
 * (warnings): authenticated, but its permissions or governance were refused.</li>
 * <li>{@code ddsi_delete_proxy_participant_by_guid(<p>:1c1) - deleting} (discovery): it left, or its lease
 * expired.</li>
 * </ul>
 * So a participant that never authenticated is counted as {@code authentication-failed} when Cyclone gives up or when
 * it leaves, whichever comes first; Cyclone's resends are not counted again. Entries go when their participant
 * leaves; at most {@value #MAX_PARTICIPANTS} are kept, the oldest dropped first, so a flood of new GUIDs cannot
 * grow memory (a dropped pending participant that then leaves is not counted).
 *
 * <p>Cyclone 0.10 never starts a handshake again for a pair whose handshake failed: only a new local participant or
 * a remote one it has not seen does ({@code ddsi_participant.c} {@code connect_participant_secure},
 * {@code ddsi_proxy_participant.c} {@code ddsi_new_proxy_participant}), and every announcement of a known one
 * renews its lease. So the watch also keeps, per remote participant still there, the local participants whose
 * handshake with it failed and has not succeeded since ({@link #failedWith}): that pair stays unmatched until one of
 * them is created anew. A remote participant refused for its permissions or governance is not kept: a new handshake
 * would be refused again.
 */
final class HandshakeWatch {

    static final int MAX_PARTICIPANTS = 4096;

    private static final String PREFIX = "(\\p{XDigit}+:\\p{XDigit}+:\\p{XDigit}+)";

    /**
     * What a line says about a remote participant, whose GUID prefix is the pattern's last group, and (handshake
     * results) the local participant's, its first; {@code keyword} rules a line out before the pattern runs.
     */
    private enum Signal {
        SECURE_DISCOVERED("(secure) NEW", "SPDP ST0 " + PREFIX + ":1c1 bes \\p{XDigit}+ \\(secure\\) NEW"),
        UNAUTHENTICATED("Non secure remote", "Non secure remote (?:writer|reader) " + PREFIX
                + ":\\p{XDigit}+ is not allowed"),
        AUTHENTICATED(") succeeded", "handshake \\(lguid=" + PREFIX + ":1c1 rguid=" + PREFIX + ":1c1\\) succeeded"),
        HANDSHAKE_FAILED(") failed: (", "handshake \\(lguid=" + PREFIX + ":1c1 rguid=" + PREFIX
                + ":1c1\\) failed: \\("),
        NOT_PERMITTED("remote participant", "(?:Could not get|Plugin does not allow) remote participant " + PREFIX
                + ":1c1"),
        GOVERNANCE_MISMATCH("Remote secure participant", "Remote secure participant " + PREFIX + ":1c1 not allowed"),
        LEFT("ddsi_delete_proxy_participant_by_guid(", "ddsi_delete_proxy_participant_by_guid\\(" + PREFIX
                + ":1c1\\) - deleting");

        final String keyword;
        final Pattern pattern;

        Signal(String keyword, String pattern) {
            this.keyword = keyword;
            this.pattern = Pattern.compile(pattern);
        }
    }

    /** FAILED and REFUSED are counted already; a FAILED one may still authenticate with a new local participant. */
    private enum State {
        AUTHENTICATING, AUTHENTICATED, FAILED, REFUSED
    }

    /** A remote participant; {@code failedWith}: the local ones whose handshake with it failed, not since redone. */
    private static final class Remote {

        State state = State.AUTHENTICATING;
        final Set<String> failedWith = new HashSet<>(2);
    }

    // In order of discovery: a participant seen again or authenticated is not renewed, so the oldest goes first.
    private final Map<String, Remote> participants = BoundedMaps.oldestFirst(MAX_PARTICIPANTS);
    private long unauthenticated;
    private long authenticationFailed;
    private long notPermitted;

    /** Reads one line of the domain's log; lines about nothing it follows are ignored. */
    synchronized void accept(String line) {
        for (Signal signal : Signal.values()) {
            if (!line.contains(signal.keyword)) {
                continue;
            }
            // One line may carry several: a warning without its own line end is glued to the next line.
            Matcher matcher = signal.pattern.matcher(line);
            while (matcher.find()) {
                apply(signal, matcher.group(matcher.groupCount()), matcher.groupCount() > 1 ? matcher.group(1) : null);
            }
        }
    }

    synchronized SecurityRefusals refusals() {
        return new SecurityRefusals(this.unauthenticated, this.authenticationFailed, this.notPermitted);
    }

    /**
     * The remote participants (GUID prefixes) still there whose handshake with the local participant {@code local}
     * failed and was not redone since.
     */
    synchronized Set<String> failedWith(String local) {
        Set<String> failed = new TreeSet<>();
        this.participants.forEach((remote, entry) -> {
            if (entry.failedWith.contains(local)) {
                failed.add(remote);
            }
        });
        return failed;
    }

    /** Forgets the local participant {@code local}, which was deleted. */
    synchronized void forget(String local) {
        this.participants.values().forEach(entry -> entry.failedWith.remove(local));
    }

    private void apply(Signal signal, String participant, @Nullable String local) {
        Remote entry = this.participants.get(participant);
        @Nullable State state = entry == null ? null : entry.state;
        switch (signal) {
            case SECURE_DISCOVERED -> this.participants.putIfAbsent(participant, new Remote());
            case AUTHENTICATED -> {
                if (state != State.REFUSED) {
                    Remote authenticated = entry == null ? new Remote() : entry;
                    authenticated.state = State.AUTHENTICATED;
                    authenticated.failedWith.remove(local);
                    this.participants.put(participant, authenticated);
                }
            }
            case UNAUTHENTICATED -> refuse(participant, entry, state, () -> this.unauthenticated++);
            case NOT_PERMITTED, GOVERNANCE_MISMATCH -> refuse(participant, entry, state, () -> this.notPermitted++);
            case HANDSHAKE_FAILED -> {
                // Not if unknown: Cyclone's timer may log it just after the participant left and was counted.
                if (entry == null || state == State.REFUSED) {
                    return;
                }
                if (state == State.AUTHENTICATING) {
                    this.authenticationFailed++;
                    entry.state = State.FAILED;
                }
                entry.failedWith.add(local);
            }
            case LEFT -> {
                if (state == State.AUTHENTICATING) {
                    this.authenticationFailed++;
                }
                this.participants.remove(participant);
            }
        }
    }

    /** Refuses the participant for good, counting it unless it was counted already. */
    private void refuse(String participant, @Nullable Remote entry, @Nullable State state, Runnable count) {
        if (state == State.REFUSED) {
            return;
        }
        if (state != State.FAILED) {
            count.run();
        }
        Remote refused = entry == null ? new Remote() : entry;
        refused.state = State.REFUSED;
        refused.failedWith.clear();
        this.participants.put(participant, refused);
    }
}

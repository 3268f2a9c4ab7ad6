package kr.c4i.gateway.dds.cyclone;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import kr.c4i.gateway.dds.SecurityRefusals;

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
 */
final class HandshakeWatch {

    static final int MAX_PARTICIPANTS = 4096;

    private static final String PREFIX = "(\\p{XDigit}+:\\p{XDigit}+:\\p{XDigit}+)";
    private static final String GUID = "\\p{XDigit}+:\\p{XDigit}+:\\p{XDigit}+:\\p{XDigit}+";

    /** What a line says about a remote participant; {@code keyword} rules a line out before the pattern runs. */
    private enum Signal {
        SECURE_DISCOVERED("(secure) NEW", "SPDP ST0 " + PREFIX + ":1c1 bes \\p{XDigit}+ \\(secure\\) NEW"),
        UNAUTHENTICATED("Non secure remote", "Non secure remote (?:writer|reader) " + PREFIX
                + ":\\p{XDigit}+ is not allowed"),
        AUTHENTICATED(") succeeded", "handshake \\(lguid=" + GUID + " rguid=" + PREFIX + ":1c1\\) succeeded"),
        HANDSHAKE_FAILED(") failed: (", "handshake \\(lguid=" + GUID + " rguid=" + PREFIX + ":1c1\\) failed: \\("),
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

    private enum State {
        AUTHENTICATING, AUTHENTICATED, REFUSED
    }

    private final Map<String, State> participants = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, State> eldest) {
            return size() > MAX_PARTICIPANTS;
        }
    };
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
                apply(signal, matcher.group(1));
            }
        }
    }

    synchronized SecurityRefusals refusals() {
        return new SecurityRefusals(this.unauthenticated, this.authenticationFailed, this.notPermitted);
    }

    private void apply(Signal signal, String participant) {
        State state = this.participants.get(participant);
        switch (signal) {
            case SECURE_DISCOVERED -> this.participants.putIfAbsent(participant, State.AUTHENTICATING);
            case AUTHENTICATED -> {
                if (state != State.REFUSED) {
                    this.participants.put(participant, State.AUTHENTICATED);
                }
            }
            case UNAUTHENTICATED -> {
                if (state != State.REFUSED) {
                    this.unauthenticated++;
                    this.participants.put(participant, State.REFUSED);
                }
            }
            case NOT_PERMITTED, GOVERNANCE_MISMATCH -> {
                if (state != State.REFUSED) {
                    this.notPermitted++;
                    this.participants.put(participant, State.REFUSED);
                }
            }
            case HANDSHAKE_FAILED -> {
                // Not if unknown: Cyclone's timer may log it just after the participant left and was counted.
                if (state == State.AUTHENTICATING) {
                    this.authenticationFailed++;
                    this.participants.put(participant, State.REFUSED);
                }
            }
            case LEFT -> {
                if (state == State.AUTHENTICATING) {
                    this.authenticationFailed++;
                }
                this.participants.remove(participant);
            }
        }
    }
}

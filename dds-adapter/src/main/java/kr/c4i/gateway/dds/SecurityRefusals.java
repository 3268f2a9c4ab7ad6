package kr.c4i.gateway.dds;

import java.util.Map;
import java.util.TreeMap;

/**
 * Remote participants that DDS Security kept out of a participant's domain, by reason, counted once per remote
 * participant however often its handshake is retried; a participant that joins again (a restarted process) is a new
 * one. Counts are cumulative since the participant joined, and cover every participant of the domain in the process,
 * since that is where a binding learns of them. Without security, all are 0.
 *
 * @param unauthenticated participants without DDS Security, whose endpoints the domain refused
 * @param authenticationFailed participants whose authentication handshake failed, timed out, or was abandoned when
 *        they left before it completed: a certificate of another authority, an expired one, a key that does not
 *        match it
 * @param notPermitted participants that authenticated but whose permissions the domain did not accept: a document
 *        not signed by its permissions authority, a grant that does not cover the domain, or governance that does
 *        not match
 */
public record SecurityRefusals(long unauthenticated, long authenticationFailed, long notPermitted) {

    /** Nothing refused. */
    public static final SecurityRefusals NONE = new SecurityRefusals(0, 0, 0);

    /** The reason for a participant without DDS Security. */
    public static final String UNAUTHENTICATED = "unauthenticated";
    /** The reason for a participant whose authentication handshake did not complete. */
    public static final String AUTHENTICATION_FAILED = "authentication-failed";
    /** The reason for an authenticated participant whose permissions were not accepted. */
    public static final String NOT_PERMITTED = "not-permitted";

    /** The counts by reason: {@code unauthenticated}, {@code authentication-failed}, {@code not-permitted}. */
    public Map<String, Long> byReason() {
        return new TreeMap<>(Map.of(UNAUTHENTICATED, this.unauthenticated, AUTHENTICATION_FAILED,
                this.authenticationFailed, NOT_PERMITTED, this.notPermitted));
    }

    /** These counts and {@code other}'s together. */
    public SecurityRefusals plus(SecurityRefusals other) {
        return new SecurityRefusals(this.unauthenticated + other.unauthenticated,
                this.authenticationFailed + other.authenticationFailed, this.notPermitted + other.notPermitted);
    }

    /** What was refused since {@code earlier}, a snapshot of the same counts. */
    public SecurityRefusals since(SecurityRefusals earlier) {
        return new SecurityRefusals(this.unauthenticated - earlier.unauthenticated,
                this.authenticationFailed - earlier.authenticationFailed, this.notPermitted - earlier.notPermitted);
    }
}

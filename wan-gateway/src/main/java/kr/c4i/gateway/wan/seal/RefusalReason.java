package kr.c4i.gateway.wan.seal;

import java.util.Locale;

/**
 * Why a sealed frame was refused: the {@code reason} tag of {@code gateway.wan.frames.refused}. The key ids a frame
 * names are not authenticated, so the reasons that rest on them ({@link #UNKNOWN_KEY}, {@link #WRONG_SITE},
 * {@link #WRONG_DESTINATION}) tell an operator what the frame claimed; the frame is refused either way.
 */
public enum RefusalReason {
    /** Too short, or a format version this gateway does not read. */
    MALFORMED,
    /** From a site this gateway has no certificate for. */
    UNKNOWN_SITE,
    /** Sealed with a key whose certificate this gateway does not know (another authority, another identity). */
    UNKNOWN_KEY,
    /** Sealed with the certificate of another site than the one the link says it came from. */
    WRONG_SITE,
    /** Sealed for another gateway than this one. */
    WRONG_DESTINATION,
    /** The authentication tag does not verify: changed on the way, or not sealed by the peer. */
    BAD_TAG,
    /** An authentic frame received already, or too far behind the newest of its epoch. */
    REPLAY,
    /** An authentic frame of an epoch (a run of the sending gateway) older than one already received. */
    OLD_EPOCH;

    /** The tag value: lower case, dashes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

package kr.c4i.gateway.wan.schedule;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Deficit round robin by bytes across the types waiting at one precedence (Shreedhar and Varghese, 1995): the type
 * at the head of the rotation gets a quantum of bytes each time it comes round and sends while its deficit covers
 * its oldest copy, so every type with copies waiting gets the same share of bytes, whatever its message size or
 * backlog. A type that runs empty leaves the rotation and loses its deficit (no banking while idle).
 */
final class TypeRotation {

    private final Backlog backlog;
    private final Precedence precedence;
    private final long quantum;
    private final ArrayDeque<String> active = new ArrayDeque<>();
    private final Map<String, Long> deficits = new HashMap<>();
    private boolean headCredited;
    private long syncedVersion = -1;

    TypeRotation(Backlog backlog, Precedence precedence, int quantum) {
        this.backlog = backlog;
        this.precedence = precedence;
        this.quantum = quantum;
    }

    /**
     * The copy this precedence sends next, or {@code null} if none waits. Asking again without {@link #served}
     * gives the same copy (unless the backlog changed).
     */
    @Nullable Waiting candidate() {
        sync();
        // Each round credits every type once; if a whole round finds nobody whose deficit covers its copy, skip in
        // one step the rounds in which nobody would be, so a large copy costs no more than a small one.
        while (!this.active.isEmpty()) {
            long fewestRounds = Long.MAX_VALUE;
            for (int turn = this.active.size(); turn > 0; turn--) {
                String type = this.active.getFirst();
                Waiting oldest = this.backlog.peek(this.precedence, type);
                if (oldest == null) {
                    leave(type);
                    continue;
                }
                if (!this.headCredited) {
                    this.deficits.merge(type, this.quantum, Long::sum);
                    this.headCredited = true;
                }
                long missing = oldest.bytes() - this.deficits.get(type);
                if (missing <= 0) {
                    return oldest;
                }
                fewestRounds = Math.min(fewestRounds, Math.ceilDiv(missing, this.quantum));
                this.active.addLast(this.active.removeFirst());
                this.headCredited = false;
            }
            if (fewestRounds != Long.MAX_VALUE && fewestRounds > 1) {
                long skipped = (fewestRounds - 1) * this.quantum;
                this.deficits.replaceAll((type, deficit) -> deficit + skipped);
            }
        }
        return null;
    }

    /** The copy {@link #candidate} gave was sent (taken): charge its type. */
    void served(Waiting copy) {
        this.deficits.computeIfPresent(copy.kmtfType(), (type, deficit) -> deficit - copy.bytes());
    }

    /**
     * Lets in the types that started waiting since the last look; a type that ran empty leaves when its turn comes
     * ({@link #candidate}), so a backlog whose types did not change costs nothing here.
     */
    private void sync() {
        long version = this.backlog.typesVersion(this.precedence);
        if (version == this.syncedVersion) {
            return;
        }
        this.syncedVersion = version;
        for (String type : this.backlog.types(this.precedence)) {
            if (this.deficits.putIfAbsent(type, 0L) == null) {
                this.active.addLast(type);
            }
        }
    }

    private void leave(String type) {
        if (type.equals(this.active.peekFirst())) {
            this.headCredited = false;
        }
        this.active.remove(type);
        this.deficits.remove(type);
    }
}

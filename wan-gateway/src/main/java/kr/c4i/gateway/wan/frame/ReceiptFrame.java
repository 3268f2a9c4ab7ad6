package kr.c4i.gateway.wan.frame;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A peer's word that it stored the messages of these DATA frames durably: the sender may now delete its copies.
 *
 * @param epoch the epoch of the DATA frames receipted (the receiver echoes the sender's epoch)
 * @param seqs their sequence numbers, ascending, without repeats; may be empty
 */
public record ReceiptFrame(long epoch, SortedSet<Long> seqs) implements Frame {

    public ReceiptFrame {
        seqs = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(seqs));
    }
}

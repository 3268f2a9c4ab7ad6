package kr.c4i.gateway.wan.store;

/** What the store did with one offered copy. */
public enum Outcome {

    /** Stored durably for its route: the store has custody now. */
    STORED,

    /** Already stored for that route (a redelivery): the store had custody already. */
    DUPLICATE,

    /** Not stored: the store is too full for its precedence. The sender keeps custody and offers it again later. */
    REFUSED,

    /**
     * Not stored: a newer report with the same supersede key is waiting for the route (or came in the same batch),
     * which makes this one worthless. The caller counts it as dropped, reason superseded.
     */
    SUPERSEDED;

    /**
     * Whether the sender may be told the copy is taken care of (receipted): it is stored here, or dropped on purpose.
     * Only a refused copy stays the sender's.
     */
    public boolean receipted() {
        return this != REFUSED;
    }
}

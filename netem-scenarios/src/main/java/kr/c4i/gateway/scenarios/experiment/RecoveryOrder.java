package kr.c4i.gateway.scenarios.experiment;

/** In which order a stopped node comes back, which decides when its recovery starts (t0). */
public enum RecoveryOrder {

    /**
     * The node is restarted while still cut off and the cut is lifted once it reports READY: t0 is the lift. Its
     * boot (JVM, PostgreSQL, bridge) is reported apart; everything after t0 is the middleware rejoining.
     */
    RESTART_THEN_LIFT,

    /**
     * The cut is lifted first, then the node restarts: peers can reach it while it boots. t0 is its READY line, so
     * a reconnect during boot shows as a negative time.
     */
    LIFT_THEN_RESTART
}

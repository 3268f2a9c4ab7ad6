/**
 * The custody log every node and gateway keeps of the steps it takes with each message, written in each step's own
 * transaction ({@link kr.c4i.gateway.custody.CustodyLog}), pruned in the background
 * ({@link kr.c4i.gateway.custody.CustodyPruner}), and read back as where a message is
 * ({@link kr.c4i.gateway.custody.CustodyTrail}: the {@code custody} actuator endpoint, {@code bin/gateway trace}).
 */
@NullMarked
package kr.c4i.gateway.custody;

import org.jspecify.annotations.NullMarked;

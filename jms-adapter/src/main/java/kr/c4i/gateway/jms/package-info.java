/**
 * Point-to-point JMS transport over ActiveMQ Artemis, the way fielded C4I systems move KMTF messages.
 *
 * <p>Every node has its own broker, embedded (the default: persistent, secured, in the gateway process) or
 * external. Every broker holds the queue {@code kmtf.node.<nodeId>} (anycast address of the same name) for its
 * own node and for each peer. On node A's broker, {@code kmtf.node.a} is A's inbox and {@code kmtf.node.b} is the
 * store-and-forward queue for B, which a core bridge (reconnecting for ever, with duplicate detection) moves to
 * address {@code kmtf.node.b} on B's broker. Nodes consume only their own queue on their own broker; inbound
 * messages that are not envelopes go to {@code kmtf.invalid}.
 *
 * <p>A node that runs on two machines has one broker on each, a primary/backup pair
 * ({@link kr.c4i.gateway.jms.JmsTransportSettings.Pair}): Artemis replicates the primary's journal to the backup, which
 * becomes active when the primary is lost. The node's own clients list both brokers and follow the active one; so do
 * the bridges of peers that list both in their URL, {@code (tcp://b1:61616,tcp://b2:61616)?ha=true&reconnectAttempts=-1}.
 * Duplicate detection, replicated with the journal, drops what a bridge or a sender resends after a failover.
 *
 * <p>Delivery guarantee: {@code send} returns once every copy is committed to the local journal. From there each
 * copy reaches the destination's inbox at least once, across restarts of either broker, and is never
 * dead-lettered; the handler's batch is acknowledged only when it returns. Brokers drop resends of the same
 * message id to the same destination (within their duplicate-id cache) and bridge resends, so duplicates are
 * rare, but receivers must still deduplicate on the message id.
 *
 * <p>Public: {@link kr.c4i.gateway.jms.JmsTransport}, {@link kr.c4i.gateway.jms.JmsTransportSettings},
 * {@link kr.c4i.gateway.jms.BrokerMode}, {@link kr.c4i.gateway.jms.PairRole} and {@link kr.c4i.gateway.jms.EmbeddedBrokerCustomizer}; also
 * {@link kr.c4i.gateway.jms.EmbeddedBroker} and {@link kr.c4i.gateway.jms.BrokerSettingChecks}, for the WAN link in
 * {@code kr.c4i.gateway.jms.link}.
 */
@NullMarked
package kr.c4i.gateway.jms;

import org.jspecify.annotations.NullMarked;

package kr.c4i.gateway.core.metrics;

/**
 * The one list of metric names, so dashboards and code cannot drift apart. Micrometer naming:
 * dot-separated, lower case; Prometheus renders them with underscores and unit suffixes.
 */
public final class MetricNames {

    /** Outbox rows claimed by the poller. */
    public static final String OUTBOX_POLLED = "gateway.outbox.polled";
    /** Outbox rows handed to the transport and marked sent; tag {@code transport}. */
    public static final String OUTBOX_PUBLISHED = "gateway.outbox.published";
    /** Outbox rows moved to quarantine; tag {@code reason}. */
    public static final String OUTBOX_QUARANTINED = "gateway.outbox.quarantined";
    /** Outbox rows whose {@code traceparent} is not a W3C traceparent: sent without a creation context. */
    public static final String OUTBOX_TRACEPARENT_INVALID = "gateway.outbox.traceparent.invalid";
    /** Rows waiting in the outbox. */
    public static final String OUTBOX_BACKLOG = "gateway.outbox.backlog";
    /** RELIABLE messages not yet receipted by every destination (receipting transports only). */
    public static final String OUTBOX_UNRECEIPTED = "gateway.outbox.unreceipted";
    /** Messages sent again because a destination had not receipted them in time; tag {@code transport}. */
    public static final String OUTBOX_RESENT = "gateway.outbox.resent";
    /** Transport sends that failed and will be retried; tag {@code transport}. */
    public static final String TRANSPORT_SEND_FAILURES = "gateway.transport.send.failures";
    /** Messages the transport delivered to this node (duplicates included). */
    public static final String INBOX_DELIVERED = "gateway.inbox.delivered";
    /** Messages newly written into the inbox. */
    public static final String INBOX_INSERTED = "gateway.inbox.inserted";
    /** Delivered messages already in the inbox (redeliveries absorbed). */
    public static final String INBOX_DUPLICATES = "gateway.inbox.duplicates";
    /**
     * Received messages (or samples that were not messages) refused and kept in the inbound quarantine instead of
     * the inbox; tags {@code reason} and {@code transport}.
     */
    public static final String INBOUND_REJECTED = "gateway.inbound.rejected";
    /**
     * Messages not sent to a destination whose clearance their classification exceeds; tag {@code destination} (a
     * node at the origin bridge, a site or node at the WAN gateway).
     */
    public static final String CLEARANCE_REFUSED = "gateway.clearance.refused";
    /** Time from outbox insert at the origin to inbox insert here. */
    public static final String DELIVERY_LATENCY = "gateway.delivery.latency";
    /**
     * DDS BEST_EFFORT samples dropped; tag {@code reason}: {@code unmatched} (written while a destination's reader
     * was not matched, counted per destination, on the sender), {@code lost} and {@code rejected} (Cyclone's
     * sample-lost and sample-rejected statuses of this node's readers).
     */
    public static final String DDS_SAMPLES_DROPPED = "gateway.dds.samples.dropped";
    /** DDS samples this node wrote (messages and receipts). */
    public static final String DDS_SAMPLES_WRITTEN = "gateway.dds.samples.written";
    /** DDS samples this node's readers took. */
    public static final String DDS_SAMPLES_RECEIVED = "gateway.dds.samples.received";
    /** Samples Cyclone reported lost on this node's readers (its sample-lost status). */
    public static final String DDS_SAMPLES_LOST = "gateway.dds.samples.lost";
    /** Samples Cyclone rejected on this node's readers (its sample-rejected status). */
    public static final String DDS_SAMPLES_REJECTED = "gateway.dds.samples.rejected";
    /** Received DDS samples that were not valid envelopes. */
    public static final String DDS_SAMPLES_INVALID = "gateway.dds.samples.invalid";
    /** Receipts this node sent for RELIABLE messages it received. */
    public static final String DDS_RECEIPTS_SENT = "gateway.dds.receipts.sent";
    /** Receipts this node received for RELIABLE messages it sent. */
    public static final String DDS_RECEIPTS_RECEIVED = "gateway.dds.receipts.received";
    /**
     * Attempts DDS Security refused; tag {@code reason}. Samples that claim to be what their writer's permissions do
     * not allow: {@code forged-origin} (a message whose origin is not its writer's), {@code forged-receipt} (a
     * receipt whose receiver is not its writer). Remote participants kept out of the node's domain, once each:
     * {@code unauthenticated} (no DDS Security), {@code authentication-failed} (a handshake that failed, timed out or
     * was abandoned: e.g. another authority's certificate), {@code not-permitted} (permissions not accepted).
     */
    public static final String DDS_SECURITY_REFUSED = "gateway.dds.security.refused";
    /**
     * Times the DDS transport recreated its participant because a DDS Security handshake with a remote participant
     * that still announces itself had failed, which Cyclone 0.10 never tries again; the new participant handshakes
     * with every remote participant afresh.
     */
    public static final String DDS_PARTICIPANT_RECREATED = "gateway.dds.participant.recreated";
    /** Remote readers matched by this node's writer of a topic; tag {@code topic}. */
    public static final String DDS_TOPIC_READERS_MATCHED = "gateway.dds.topic.readers.matched";

    public static final String TAG_TRANSPORT = "transport";
    public static final String TAG_REASON = "reason";
    public static final String TAG_TYPE = "type";
    public static final String TAG_NODE = "node";
    public static final String TAG_TOPIC = "topic";
    public static final String TAG_DESTINATION = "destination";

    // The WAN gateway's relay engine (wan-gateway's relay and metrics packages).
    /**
     * Messages the WAN gateway moved; tags {@code site} (the peer site, or this site for the LAN), {@code direction}
     * ({@code lan-in} taken off this site's LAN, {@code wan-out} receipted by the peer, {@code wan-in} received from a
     * peer and stored, {@code lan-out} delivered to this site's nodes), {@code precedence}, {@code type}.
     */
    public static final String WAN_RELAYED = "gateway.wan.relayed";
    /** Messages the WAN gateway dropped on purpose; tags {@code reason}, {@code precedence}, {@code type}. */
    public static final String WAN_DROPPED = "gateway.wan.dropped";
    /** WAN frames; tags {@code site}, {@code direction} ({@code sent}, {@code received}), {@code kind} ({@code data}, {@code receipt}). */
    public static final String WAN_FRAMES = "gateway.wan.frames";
    /**
     * Bytes of WAN frames as the gateway hands them to the link or reads them from it (before sealing, after
     * unsealing); tags {@code site}, {@code direction} ({@code sent}, {@code received}), {@code kind} ({@code data},
     * {@code receipt}).
     */
    public static final String WAN_BYTES = "gateway.wan.bytes";
    /**
     * Bytes of the encoded envelopes (each message's header fields and body, as a DATA frame's block holds them)
     * that the DATA frames sent to a peer carried, before compression; counted per frame handed to the link, as
     * {@link #WAN_BYTES} counts that frame (a frame sent again counts again). {@code gateway.wan.bytes} of
     * {@code direction=sent, kind=data} over this is the link's compression ratio: the frames' bytes, headers
     * included, over what they carry; with compression off just above 1 (a frame's header). Tags {@code site},
     * {@code direction} ({@code sent}).
     */
    public static final String WAN_PAYLOAD_BYTES = "gateway.wan.payload.bytes";
    /** Frames received that could not be read (corrupt, unknown version or dictionary); tag {@code site}. */
    public static final String WAN_FRAMES_REJECTED = "gateway.wan.frames.rejected";
    /**
     * Sealed WAN frames refused before the gateway read them (bad tag, unknown key or site, wrong site or destination,
     * replay, old epoch); tags {@code site} (as the link named the sender), {@code reason}.
     */
    public static final String WAN_FRAMES_REFUSED = "gateway.wan.frames.refused";
    /** DATA frames given up (no receipt in time, link down) whose messages went back to be sent again; tag {@code site}. */
    public static final String WAN_FRAMES_RESENT = "gateway.wan.frames.resent";
    /** 1 while the link reaches the peer site, else 0; tag {@code site}. */
    public static final String WAN_LINK_UP = "gateway.wan.link.up";
    /** Bytes sent to a peer site and not yet receipted (the scheduler's credit in use); tag {@code site}. */
    public static final String WAN_LINK_INFLIGHT_BYTES = "gateway.wan.link.inflight.bytes";
    /**
     * The share (0 to 1) of the norm link's packets to a peer site lost on the way, as the peer measures it over its
     * last samples; NaN until it has measured; tag {@code site}.
     */
    public static final String WAN_LINK_LOSS = "gateway.wan.link.loss";
    /** Parity segments the norm link sends with every frame to a peer site; tag {@code site}. */
    public static final String WAN_LINK_PARITY = "gateway.wan.link.parity";
    /** From creation at the origin to custody at this site's nodes; tag {@code precedence}. */
    public static final String WAN_DELIVERY_LATENCY = "gateway.wan.delivery.latency";
    /** 1 while this gateway leads its pair (a lone gateway always does), else 0; tag {@code site}. */
    public static final String WAN_PAIR_LEADER = "gateway.wan.pair.leader";
    /** Leadership of the pair taken, from the standby's side; tag {@code site}. */
    public static final String WAN_PAIR_TAKEOVERS = "gateway.wan.pair.takeovers";
    /**
     * 1 while this gateway of a pair could relay if the other went: it leads, or it stands by with every side ready
     * to take over (over JMS, its backup brokers hold the leader's journals); else 0. Tag {@code site}.
     */
    public static final String WAN_PAIR_READY = "gateway.wan.pair.ready";

    public static final String TAG_SITE = "site";
    public static final String TAG_ROUTE = "route";
    public static final String TAG_DIRECTION = "direction";
    public static final String TAG_PRECEDENCE = "precedence";
    public static final String TAG_KIND = "kind";

    private MetricNames() {
    }

    // wan-gateway, the relay store (kr.c4i.gateway.wan.store); tags route (a peer site id, or @lan) and precedence.
    /** Copies stored for a route, waiting or in flight; tags {@code route}, {@code precedence}. */
    public static final String WAN_STORE_COPIES = "gateway.wan.store.copies";
    /** Bytes of the copies stored for a route (body and header estimate); tags {@code route}, {@code precedence}. */
    public static final String WAN_STORE_BYTES = "gateway.wan.store.bytes";
    /** Age of the oldest copy stored for a route; tags {@code route}, {@code precedence}. */
    public static final String WAN_STORE_OLDEST_AGE = "gateway.wan.store.oldest.age";
    /** The store's bound in bytes, all routes together. */
    public static final String WAN_STORE_BOUND = "gateway.wan.store.bound";
    /** Copies refused because the store was too full for their precedence (kept by their sender); tag precedence. */
    public static final String WAN_STORE_REFUSED = "gateway.wan.store.refused";
    /** Copies offered again that were stored for their route already (absorbed). */
    public static final String WAN_STORE_DUPLICATES = "gateway.wan.store.duplicates";

    // wan-gateway: relay policy (wan.policy)
    /** Relay policy file versions read after start; tag {@code outcome}: {@code applied} or {@code failed}. */
    public static final String WAN_POLICY_RELOADS = "gateway.wan.policy.reloads";
    public static final String TAG_OUTCOME = "outcome";

    // wan-gateway: relay quarantine (wan.store.RelayQuarantine, counted by wan.relay.RelayEngine)
    /**
     * Messages taken off the LAN and kept in the gateway's {@code relay_quarantine} table instead of being relayed;
     * tags {@code reason} ({@code unknown-type}), {@code precedence}.
     */
    public static final String WAN_QUARANTINED = "gateway.wan.quarantined";
    /** Delivery ({@code delivered=true}) and non-delivery reports a node wrote into its {@code delivery_report}. */
    public static final String REPORTS_WRITTEN = "gateway.reports.written";
    /** Rounds in which a node could not ask its site's gateway for delivery reports, or not write them. */
    public static final String REPORTS_FAILURES = "gateway.reports.failures";
    /**
     * Custody steps with messages of other sites that this gateway stored to forward to their origins' sites
     * ({@code way=forwarded}), and steps other sites' gateways forwarded here that it kept ({@code way=received}).
     */
    public static final String WAN_CUSTODY_STEPS = "gateway.wan.custody.steps";

    // Both services: the custody log's pruner (service-support, kr.c4i.gateway.custody).
    /** Custody log rows the pruner deleted; tag {@code reason}: {@code age} (past retention) or {@code bound}. */
    public static final String CUSTODY_PRUNED = "gateway.custody.pruned";
    /** Pruning rounds that failed; the log keeps its rows until a round succeeds, and data flows on meanwhile. */
    public static final String CUSTODY_PRUNE_FAILURES = "gateway.custody.prune.failures";
    /**
     * Merges of the custody log index's pending list that failed (service-support, CustodyIndexMerger); the list is
     * then merged by autovacuum and, when full, by a custody step's own transaction.
     */
    public static final String CUSTODY_INDEX_MERGE_FAILURES = "gateway.custody.index.merge.failures";

    // Both services, with gateway.tracing.enabled and a collector: the spans' queue on disk (service-support,
    // kr.c4i.gateway.tracing.SpanQueue).
    /** Bytes of spans on disk waiting for the trace collector. */
    public static final String TRACING_QUEUE_BYTES = "gateway.tracing.queue.bytes";
    /** The most the queued spans take on disk; queued bytes at it mean the oldest spans are deleted. */
    public static final String TRACING_QUEUE_BOUND = "gateway.tracing.queue.bound";
    /** Spans the trace collector took. */
    public static final String TRACING_SPANS_EXPORTED = "gateway.tracing.spans.exported";
    /** Exports of queued spans that failed (the collector unreachable or refusing); each is tried again. */
    public static final String TRACING_EXPORT_FAILURES = "gateway.tracing.export.failures";
}

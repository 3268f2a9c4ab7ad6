package kr.c4i.gateway.bridge.outbox;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;

/** The outbox loop's parts wired as {@link OutboxConfiguration} wires them, for tests without a context. */
public final class OutboxLoop {

    private OutboxLoop() {
    }

    /**
     * A publisher of node a sending every type to b, as over JMS: no ledger, no custody log.
     *
     * @param maxRowAttempts how often a row may fail alone before it is quarantined
     */
    public static OutboxPublisher publisher(DataSource dataSource, OutboxRepository outbox, KmtfCatalogue catalogue,
            Transport transport, int maxRowAttempts) {
        NodeId a = NodeId.of("a");
        BridgeMetrics metrics = new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS);
        RowEnvelopes envelopes = new RowEnvelopes(new KmtfValidator(catalogue),
                RoutingTable.of(Map.of(NodeId.of("b"), List.of("*")), catalogue), a, Clearances.unrestricted(),
                metrics);
        return new OutboxPublisher(dataSource, outbox, new QuarantineRepository(), envelopes, a, transport, metrics,
                BadRowPolicy.QUARANTINE, null, new RowFailures(maxRowAttempts), CustodyLog.off());
    }

    /** @param ledger for a receipting transport; {@code null} for the others */
    public static OutboxPoller poller(DataSource dataSource, OutboxProperties properties, KmtfCatalogue catalogue,
            RoutingTable routing, NodeId node, Transport transport, BridgeMetrics metrics,
            @Nullable DeliveryLedger ledger, Clock clock) {
        return poller(dataSource, properties, catalogue, routing, Clearances.unrestricted(), node, transport, metrics,
                ledger, clock, CustodyLog.off());
    }

    /**
     * @param clearances each destination's clearance, as {@code gateway.routing.clearances} configures them
     * @param custody where the publisher, the resender and the ledger log their custody steps
     */
    public static OutboxPoller poller(DataSource dataSource, OutboxProperties properties, KmtfCatalogue catalogue,
            RoutingTable routing, Clearances clearances, NodeId node, Transport transport, BridgeMetrics metrics,
            @Nullable DeliveryLedger ledger, Clock clock, CustodyLog custody) {
        return poller(dataSource, properties, catalogue, routing, clearances, node, transport, metrics, ledger, clock,
                custody, MessageTracing.off());
    }

    /** @param tracing the spans of what the publisher and the resender send */
    public static OutboxPoller poller(DataSource dataSource, OutboxProperties properties, KmtfCatalogue catalogue,
            RoutingTable routing, Clearances clearances, NodeId node, Transport transport, BridgeMetrics metrics,
            @Nullable DeliveryLedger ledger, Clock clock, CustodyLog custody, MessageTracing tracing) {
        OutboxRepository outbox = new OutboxRepository(dataSource);
        RowFailures failures = new RowFailures(properties.maxRowAttempts());
        RowEnvelopes envelopes = new RowEnvelopes(new KmtfValidator(catalogue), routing, node, clearances, metrics);
        OutboxPublisher publisher = new OutboxPublisher(dataSource, outbox, new QuarantineRepository(), envelopes,
                node, transport, metrics, properties.badRowPolicy(), ledger, failures, custody, tracing);
        OutboxResender resender = ledger == null ? null
                : new OutboxResender(dataSource, ledger, envelopes, transport, metrics,
                        new QuarantineRepository(), node, custody, tracing);
        return new OutboxPoller(dataSource, properties, publisher, resender,
                new OutboxGauges(outbox, failures, ledger, metrics), failures, metrics, clock, node);
    }
}

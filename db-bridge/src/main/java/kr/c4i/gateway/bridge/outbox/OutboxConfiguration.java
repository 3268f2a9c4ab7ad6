package kr.c4i.gateway.bridge.outbox;

import java.time.Clock;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.ReceiptingTransport;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * The outbox loop's parts: the poller waits and dispatches to the publisher, the resender (receipting
 * transports only), the gauges; the delivery ledger and the rows being retried are shared between them.
 */
@Configuration(proxyBeanMethods = false)
class OutboxConfiguration {

    /** Where the outbox loop's timers and the ledger's ages read the time; the user's clock wins. */
    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    @ConditionalOnMissingBean
    DeliveryLedger deliveryLedger(DataSource dataSource, OutboxProperties outbox, Clock clock, CustodyLog custody) {
        return new DeliveryLedger(dataSource, outbox.resendAfter(), outbox.resendMax(), clock, custody);
    }

    @Bean
    RowFailures rowFailures(OutboxProperties outbox) {
        return new RowFailures(outbox.maxRowAttempts());
    }

    @Bean
    OutboxRepository outboxRepository(DataSource dataSource, KmtfCatalogue catalogue) {
        return new OutboxRepository(dataSource, catalogue);
    }

    @Bean
    RowEnvelopes rowEnvelopes(KmtfValidator validator, RoutingTable routing, NodeId node, Clearances clearances,
            BridgeMetrics metrics) {
        return new RowEnvelopes(validator, routing, node, clearances, metrics);
    }

    @Bean
    OutboxPublisher outboxPublisher(DataSource dataSource, OutboxRepository outbox, RowEnvelopes envelopes,
            NodeId node, Transport transport, BridgeMetrics metrics, OutboxProperties properties,
            DeliveryLedger ledger, RowFailures failures, CustodyLog custody, MessageTracing tracing) {
        return new OutboxPublisher(dataSource, outbox, new QuarantineRepository(), envelopes, node, transport, metrics,
                properties.badRowPolicy(), receiptsNeeded(transport, ledger), failures, custody, tracing);
    }

    @Bean
    OutboxResender outboxResender(DataSource dataSource, DeliveryLedger ledger, RowEnvelopes envelopes,
            Transport transport, BridgeMetrics metrics, NodeId node, CustodyLog custody, MessageTracing tracing) {
        return new OutboxResender(dataSource, ledger, envelopes, transport, metrics, new QuarantineRepository(), node,
                custody, tracing);
    }

    @Bean
    OutboxGauges outboxGauges(OutboxRepository outbox, RowFailures failures, DeliveryLedger ledger,
            Transport transport, BridgeMetrics metrics) {
        return new OutboxGauges(outbox, failures, receiptsNeeded(transport, ledger), metrics);
    }

    @Bean
    OutboxPoller outboxPoller(DataSource dataSource, OutboxProperties properties, OutboxPublisher publisher,
            OutboxResender resender, OutboxGauges gauges, RowFailures failures, Transport transport,
            BridgeMetrics metrics, Clock clock, NodeId node) {
        return new OutboxPoller(dataSource, properties, publisher,
                transport instanceof ReceiptingTransport ? resender : null, gauges, failures, metrics, clock, node);
    }

    /** The ledger matters only where the transport receipts instead of storing durably on its first hop. */
    private static @Nullable DeliveryLedger receiptsNeeded(Transport transport, DeliveryLedger ledger) {
        return transport instanceof ReceiptingTransport ? ledger : null;
    }
}

package kr.c4i.gateway.bridge;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.Assert;

import kr.c4i.gateway.bridge.config.InboxProperties;
import kr.c4i.gateway.bridge.config.NodeProperties;
import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.config.RoutingProperties;
import kr.c4i.gateway.bridge.inbox.InboundQuarantine;
import kr.c4i.gateway.bridge.inbox.InboundValidator;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.inbox.ValidatingInbox;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.outbox.DeliveryLedger;
import kr.c4i.gateway.bridge.outbox.OutboxPoller;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.ReceiptingTransport;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.custody.CustodyProperties;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * The transport-independent half of the bridge: catalogue, routing, inbox, metrics, lifecycle; the outbox loop's
 * parts are in {@code outbox.OutboxConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
class BridgeConfiguration {

    private static final Logger log = LoggerFactory.getLogger(BridgeConfiguration.class);

    @Bean
    NodeId nodeId(NodeProperties node) {
        Assert.hasText(node.id(), "gateway.node.id must be set: the name of this node, e.g. 'a'");
        return NodeId.of(node.id());
    }

    @Bean
    @ConditionalOnMissingBean
    KmtfCatalogue kmtfCatalogue(NodeProperties node) {
        return node.catalogue() == null ? KmtfCatalogue.loadDefault() : KmtfCatalogue.load(node.catalogue());
    }

    @Bean
    KmtfValidator kmtfValidator(KmtfCatalogue catalogue) {
        return new KmtfValidator(catalogue);
    }

    @Bean
    @ConditionalOnMissingBean
    RoutingTable routingTable(RoutingProperties routing, KmtfCatalogue catalogue) {
        Map<NodeId, List<String>> subscriptions = new LinkedHashMap<>();
        routing.subscriptions().forEach((node, patterns) -> subscriptions.put(NodeId.of(node), patterns));
        return RoutingTable.of(subscriptions, catalogue);
    }

    /**
     * Each node's clearance; fail-safe: a node not listed is cleared UNCLASSIFIED only, so forgetting a node sends
     * it nothing classified rather than everything. An unknown level stops the start.
     */
    @Bean
    @ConditionalOnMissingBean
    Clearances clearances(RoutingProperties routing, RoutingTable table, NodeId self) {
        Clearances clearances = Clearances.of(routing.clearances(), Classification.UNCLASSIFIED,
                "gateway.routing.clearances");
        List<String> nodes = new ArrayList<>(table.nodes().stream().map(NodeId::value).toList());
        nodes.add(self.value());
        var unlisted = clearances.unlisted(nodes);
        if (!unlisted.isEmpty()) {
            log.warn("No clearance for nodes {} (gateway.routing.clearances.<node>): they are cleared {} only, and "
                    + "get no message classified higher", unlisted, clearances.unlistedClearance());
        }
        return clearances;
    }

    /** The custody log of this node's steps, over its transport; the user's log wins. */
    @Bean
    @ConditionalOnMissingBean
    CustodyLog custodyLog(CustodyProperties custody, NodeId node, NodeProperties properties) {
        return custody.enabled() ? new CustodyLog(node.value(), properties.transport().label()) : CustodyLog.off();
    }

    @Bean
    BridgeMetrics bridgeMetrics(MeterRegistry registry, NodeProperties node) {
        return new BridgeMetrics(registry, node.transport());
    }

    /** This node's claim on the interface database, before anything reads or writes it. */
    @Bean
    @DependsOnDatabaseInitialization
    DatabaseOwner databaseOwner(DataSource dataSource, NodeId node) throws SQLException {
        return DatabaseOwner.claimed(dataSource, "The interface database", "node", node.value(), "gateway.node.id");
    }

    @Bean
    InboxWriter inboxWriter(DataSource dataSource, BridgeMetrics metrics, CustodyLog custody,
            MessageTracing tracing) {
        return new InboxWriter(dataSource, metrics, custody, tracing);
    }

    @Bean
    ValidatingInbox validatingInbox(DataSource dataSource, KmtfValidator validator, InboxWriter inbox,
            BridgeMetrics metrics, Clearances clearances, NodeId self, CustodyLog custody) {
        return new ValidatingInbox(new InboundValidator(validator, clearances.of(self.value())), inbox,
                new InboundQuarantine(dataSource, metrics.transport().label(), custody), metrics);
    }

    @Bean
    BridgeLifecycle bridgeLifecycle(Transport transport, ValidatingInbox inbox, OutboxPoller poller,
            DeliveryLedger ledger, OutboxProperties outbox, InboxProperties inboxProperties,
            ObjectProvider<PublishGate> gates) {
        return new BridgeLifecycle(transport, inbox, poller, receiptsNeeded(transport, ledger), outbox.enabled(),
                inboxProperties.enabled(), gates.orderedStream().toList());
    }

    /** The ledger matters only where the transport receipts instead of storing durably on its first hop. */
    private static @Nullable DeliveryLedger receiptsNeeded(Transport transport, DeliveryLedger ledger) {
        return transport instanceof ReceiptingTransport ? ledger : null;
    }
}

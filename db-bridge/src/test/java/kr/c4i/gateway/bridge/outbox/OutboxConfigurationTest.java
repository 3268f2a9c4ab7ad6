package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;

/** How the outbox loop's parts are wired, and which of them the user may replace. No bean connects on creation. */
class OutboxConfigurationTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(OutboxProperties.class)
    static class Bridge {

        @Bean
        DataSource dataSource() {
            return new PGSimpleDataSource();
        }

        @Bean
        NodeId nodeId() {
            return NodeId.of("a");
        }

        @Bean
        KmtfCatalogue kmtfCatalogue() {
            return CATALOGUE;
        }

        @Bean
        KmtfValidator kmtfValidator() {
            return new KmtfValidator(CATALOGUE);
        }

        @Bean
        RoutingTable routingTable() {
            return RoutingTable.of(Map.of(NodeId.of("b"), List.of("*")), CATALOGUE);
        }

        @Bean
        Clearances clearances() {
            return Clearances.unrestricted();
        }

        @Bean
        Transport transport() {
            return new RecordingTransport();
        }

        @Bean
        BridgeMetrics bridgeMetrics() {
            return new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS);
        }

        @Bean
        CustodyLog custodyLog() {
            return CustodyLog.off();
        }

        @Bean
        MessageTracing messageTracing() {
            return MessageTracing.off();
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Bridge.class);

    @Test
    void theLoopIsBuiltOnTheSystemClock() {
        runner.withUserConfiguration(OutboxConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(OutboxPoller.class).hasSingleBean(OutboxPublisher.class)
                    .hasSingleBean(OutboxResender.class).hasSingleBean(OutboxGauges.class)
                    .hasSingleBean(DeliveryLedger.class);
            assertThat(context.getBean(Clock.class)).isEqualTo(Clock.systemUTC());
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClockAndLedger {

        static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);

        @Bean
        Clock testClock() {
            return CLOCK;
        }

        @Bean
        DeliveryLedger ownLedger(DataSource dataSource) {
            return new DeliveryLedger(dataSource, Duration.ofSeconds(1), Duration.ofSeconds(2), CLOCK,
                    CustodyLog.off());
        }
    }

    @Test
    void theUsersClockAndLedgerWin() {
        runner.withUserConfiguration(OwnClockAndLedger.class, OutboxConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Clock.class).hasSingleBean(DeliveryLedger.class)
                    .hasSingleBean(OutboxPoller.class);
            assertThat(context.getBean(Clock.class)).isSameAs(OwnClockAndLedger.CLOCK);
            assertThat(context).getBean(DeliveryLedger.class).isSameAs(context.getBean("ownLedger"));
        });
    }
}

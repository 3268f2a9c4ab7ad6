package kr.c4i.gateway.bridge.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.bridge.config.InvalidPropertiesException;
import kr.c4i.gateway.bridge.support.NodeContext;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.JmsTransportSettings.Pair;
import kr.c4i.gateway.jms.PairRole;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.pki.TlsStores;

/** Which transport one property selects; nothing here opens a broker or a participant. */
class TransportConfigurationTest {

    /** DDS without security, which a DDS node must be told explicitly. */
    private static final String PLAIN_DDS = "gateway.dds.security.plain=true";

    private static final AutoConfigurations TRANSPORTS = AutoConfigurations.of(JmsTransportConfiguration.class,
            DdsTransportConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(NodeContext.class).withConfiguration(TRANSPORTS)
            .withPropertyValues("gateway.node.id=a", "gateway.jms.user=gateway", "gateway.jms.password=secret")
            .withPropertyValues("gateway.jms.tls.plain-tcp=true");

    // As an operator starts a node who has chosen neither TLS nor plain TCP.
    private final ApplicationContextRunner unsecured = new ApplicationContextRunner()
            .withUserConfiguration(NodeContext.class).withConfiguration(TRANSPORTS)
            .withPropertyValues("gateway.node.id=a", "gateway.jms.user=gateway", "gateway.jms.password=secret");

    @TempDir
    Path dir;

    @Configuration(proxyBeanMethods = false)
    static class OwnTransport {

        @Bean
        Transport transport() {
            return new RecordingTransport();
        }
    }

    @Test
    void jmsIsTheTransportByDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(JmsTransport.class).doesNotHaveBean(DdsTransport.class);
            assertThat(context.getBean(Transport.class).kind()).isEqualTo(TransportKind.JMS);
        });
    }

    @Test
    void ddsIsTheTransportWhenTheNodeSaysSo() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.domain-id=7").run(context -> {
            assertThat(context).hasSingleBean(DdsTransport.class).doesNotHaveBean(JmsTransport.class);
            assertThat(context.getBean(Transport.class).kind()).isEqualTo(TransportKind.DDS);
        });
    }

    @Test
    void ddsCountsBestEffortDropsByReasonAndSizesItsReadersFromProperties() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.best-effort-backlog=1000")
                .run(context -> {
                    assertThat(context.getBean(DdsTransportSettings.class).bestEffortBacklog()).isEqualTo(1000);
                    assertThat(context.getBean(MeterRegistry.class).find(MetricNames.DDS_SAMPLES_DROPPED)
                            .functionCounters())
                            .extracting(counter -> counter.getId().getTag(MetricNames.TAG_REASON))
                            .containsExactlyInAnyOrder("unmatched", "lost", "rejected");
                    assertThat(context).hasSingleBean(DdsRouteMatching.class);
                });
    }

    @Test
    void jmsDefaultsAreTheDocumentedOnesAndReachTheAdapter() {
        runner.run(context -> {
            JmsTransportSettings settings = context.getBean(JmsTransportSettings.class);
            assertThat(settings.embedded().host()).isEqualTo("0.0.0.0");
            assertThat(settings.embedded().port()).isEqualTo(61616);
            assertThat(settings.embedded().dataDirectory()).isEqualTo(Path.of("data", "artemis", "a"));
            assertThat(settings.receive().batchSize()).isEqualTo(500);
            assertThat(settings.bridge().maxRetryInterval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.bridge().failureCheckPeriod()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.bridge().connectionTtl()).isEqualTo(Duration.ofSeconds(30));
            assertThat(settings.send().bundleMaxEnvelopes()).isEqualTo(256);
            assertThat(settings.embedded().pair()).as("a lone broker").isNull();
        });
    }

    @Test
    void jmsBrokerPairComesFromPropertiesWithTheDocumentedDefaults() {
        runner.withPropertyValues("gateway.jms.embedded.pair.role=backup",
                "gateway.jms.embedded.pair.partner=node-a1:61616", "gateway.jms.embedded.pair.host=node-a2")
                .run(context -> assertThat(context.getBean(JmsTransportSettings.class).embedded().pair())
                        .isEqualTo(Pair.of(PairRole.BACKUP, "node-a1:61616").withHost("node-a2"))
                        .satisfies(pair -> {
                            assertThat(pair.failureCheckPeriod()).isEqualTo(Duration.ofSeconds(5));
                            assertThat(pair.connectionTtl()).isEqualTo(Duration.ofSeconds(15));
                        }));
        runner.withPropertyValues("gateway.jms.embedded.host=10.0.0.1", "gateway.jms.embedded.pair.role=PRIMARY",
                "gateway.jms.embedded.pair.partner=10.0.0.2:61616", "gateway.jms.embedded.pair.cluster-user=pair",
                "gateway.jms.embedded.pair.cluster-password=pair-secret",
                "gateway.jms.embedded.pair.failure-check-period=2s", "gateway.jms.embedded.pair.connection-ttl=6s")
                .run(context -> assertThat(context.getBean(JmsTransportSettings.class).embedded().pair())
                        .isEqualTo(new Pair(PairRole.PRIMARY, "10.0.0.2:61616", null, "pair", "pair-secret",
                                Duration.ofSeconds(2), Duration.ofSeconds(6))));
    }

    @Test
    void jmsBrokerPairRefusalsNameEachPropertyAsWritten() {
        ApplicationContextRunner backup = runner.withPropertyValues("gateway.jms.embedded.pair.role=backup",
                "gateway.jms.embedded.pair.host=node-a2");
        backup.withPropertyValues("gateway.jms.embedded.pair.partner=node-a1").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.partner=node-a1")
                .hasStackTraceContaining("must be the other broker's host:port"));
        backup.withPropertyValues("gateway.jms.embedded.pair.partner=node-a1:61616",
                "gateway.jms.embedded.pair.cluster-user=pair").run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.cluster-user=pair")
                        .hasStackTraceContaining("must be set together"));
        backup.withPropertyValues("gateway.jms.embedded.pair.partner=node-a1:61616",
                "gateway.jms.embedded.pair.failure-check-period=20s").run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.connection-ttl=(not set)"));
        runner.withPropertyValues("gateway.jms.embedded.pair.role=primary",
                "gateway.jms.embedded.pair.partner=node-a2:61616").run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.host=(not set)")
                        .hasStackTraceContaining("the wildcard address '0.0.0.0'"));
        runner.withPropertyValues("gateway.jms.embedded.pair.partner=node-a2:61616").run(context -> assertThat(
                context).hasFailed().getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.role=(not set)"));
        runner.withPropertyValues("gateway.jms.embedded.pair.role=master").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("gateway.jms.embedded.pair.role"));
    }

    @Test
    void jmsBundlesComeFromPropertiesAndOneOutsideTheFormatIsRefusedByName() {
        runner.withPropertyValues("gateway.jms.bundle-max-envelopes=1").run(context -> assertThat(
                context.getBean(JmsTransportSettings.class).send().bundleMaxEnvelopes()).isOne());
        for (String refused : new String[] { "0", "257" }) {
            runner.withPropertyValues("gateway.jms.bundle-max-envelopes=" + refused)
                    .run(context -> assertThat(context).hasFailed().getFailure()
                            .hasStackTraceContaining("gateway.jms.bundle-max-envelopes"));
        }
    }

    @Test
    void jmsBridgeLivenessComesFromPropertiesAndATtlUnderTheCheckIsRefusedByName() {
        runner.withPropertyValues("gateway.jms.bridge-failure-check-period=2s", "gateway.jms.bridge-connection-ttl=7s")
                .run(context -> {
                    JmsTransportSettings.Bridge bridge = context.getBean(JmsTransportSettings.class).bridge();
                    assertThat(bridge.failureCheckPeriod()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(bridge.connectionTtl()).isEqualTo(Duration.ofSeconds(7));
                });
        runner.withPropertyValues("gateway.jms.bridge-failure-check-period=20s", "gateway.jms.bridge-connection-ttl=5s")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.jms.bridge-connection-ttl"));
    }

    @Test
    void ddsDefaultsAreTheDocumentedOnesAndReachTheAdapter() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS).run(context -> {
            DdsTransportSettings settings = context.getBean(DdsTransportSettings.class);
            assertThat(settings.participant().domainId()).isZero();
            assertThat(settings.participant().network().maxDatagramSize()).isEqualTo(1400);
            assertThat(settings.participant().discovery().maxParticipantsPerHost()).isEqualTo(32);
            assertThat(settings.participant().discovery().lease()).isEqualTo(Duration.ofSeconds(4));
            assertThat(settings.participant().writeBatch()).isTrue();
            assertThat(settings.writeTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.bestEffortBacklog()).isEqualTo(4096);
        });
    }

    @Test
    void jmsPeersAndDataDirectoryComeFromProperties() {
        runner.withPropertyValues("gateway.jms.peers.b.url=tcp://10.0.0.2:61616",
                "gateway.jms.embedded.data-directory=/var/lib/gateway/artemis").run(context -> {
                    JmsTransportSettings settings = context.getBean(JmsTransportSettings.class);
                    assertThat(settings.peers()).containsOnlyKeys(NodeId.of("b"));
                    assertThat(settings.embedded().dataDirectory()).hasToString("/var/lib/gateway/artemis/a");
                });
    }

    @Test
    void jmsWithoutAPasswordFailsNamingTheSetting() {
        new ApplicationContextRunner().withUserConfiguration(NodeContext.class).withConfiguration(TRANSPORTS)
                .withPropertyValues("gateway.jms.user=gateway")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("password"));
    }

    @Test
    void jmsWithNeitherTlsNorPlainTcpRefusesToStartSayingWhatToSet() {
        unsecured.run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("gateway.jms.tls.key-store=(not set)")
                .hasStackTraceContaining("broker connections use TLS unless plain TCP is turned on explicitly")
                .hasStackTraceContaining("tls.plainTcp=true"));
    }

    @Test
    void jmsTlsStoresFromPropertiesReachTheAdapterWithHostsVerified() {
        Duration day = Duration.ofDays(1);
        TlsStores stores = TlsStores.write(SiteAuthority.create("s1", day).issue(IdentityRequest.loopback("a"), day),
                dir);
        unsecured.withPropertyValues("gateway.jms.tls.key-store=" + stores.keyStore(),
                "gateway.jms.tls.key-store-password-file=" + stores.passwordFile(),
                "gateway.jms.tls.trust-store=" + stores.trustStore()).run(context -> assertThat(
                        context.getBean(JmsTransportSettings.class).tls())
                        .isEqualTo(new BrokerTls(stores.keyStore(), stores.passwordFile(), stores.trustStore(), null,
                                true)));
    }

    @Test
    void jmsWithTlsStoresAndPlainTcpBothSetIsRefused() {
        runner.withPropertyValues("gateway.jms.tls.key-store=/etc/gateway/a.p12").run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("gateway.jms.tls.plain-tcp=true")
                .hasStackTraceContaining("remove one or the other"));
    }

    @Test
    void ddsAnnouncementsComeFromPropertiesAndOneOutlivingTheLeaseIsRefused() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.announce-interval=500ms")
                .run(context -> assertThat(context.getBean(DdsTransportSettings.class).participant()
                        .discovery().announceInterval()).isEqualTo(Duration.ofMillis(500)));
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.announce-interval=30s")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.announce-interval=30s").hasStackTraceContaining("lease"));
    }

    @Test
    void ddsLeaseComesFromPropertiesBoundsTheAnnouncementsAndOneOutOfRangeIsRefused() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.lease=20s",
                "gateway.dds.announce-interval=15s").run(context -> assertThat(context
                        .getBean(DdsTransportSettings.class).participant().discovery().lease())
                        .isEqualTo(Duration.ofSeconds(20)));
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.announce-interval=5s")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.announce-interval=5s")
                        .hasStackTraceContaining("shorter than the lease (PT4S)"));
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.lease=500ms")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.lease=500ms").hasStackTraceContaining("1..60 s"));
    }

    @Test
    void ddsStartAnnouncementsDefaultToTheTransportsOwnDefault() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS).run(context -> assertThat(context
                .getBean(DdsTransportSettings.class).startAnnouncements())
                .isEqualTo(DdsTransportSettings.StartAnnouncements.DEFAULT));
    }

    @Test
    void ddsStartAnnouncementsComeFromPropertiesAndTooManyAreRefused() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.start-announcements.count=7",
                "gateway.dds.start-announcements.interval=150ms").run(context -> assertThat(context
                        .getBean(DdsTransportSettings.class).startAnnouncements())
                        .isEqualTo(new DdsTransportSettings.StartAnnouncements(7, Duration.ofMillis(150))));
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.start-announcements.count=500")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.start-announcements.count=500")
                        .hasStackTraceContaining("0..120"));
    }

    @Test
    void aDdsNodeWithNeitherSecurityNorPlainDdsDoesNotStartAndNamesBothChoices() {
        runner.withPropertyValues("gateway.node.transport=dds").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining(InvalidPropertiesException.class.getName())
                .hasStackTraceContaining("gateway.dds.security.directory=(not set)")
                .hasStackTraceContaining("gateway.dds.security.plain=(not set)")
                .hasStackTraceContaining("security.plain=true to join without it"));
    }

    @Test
    void plainDdsWithSecurityFilesIsRefusedNamingPlain() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS,
                "gateway.dds.security.directory=/etc/gateway/dds").run(context -> assertThat(context).hasFailed()
                        .getFailure().hasStackTraceContaining("gateway.dds.security.plain=true")
                        .hasStackTraceContaining("remove one or the other"));
    }

    @Test
    void ddsSecurityIsOffOnlyWhenPlainIsAskedForAndTakesUnsetFilesFromItsDirectory() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS).run(context -> {
            assertThat(context.getBean(DdsTransportSettings.class).participant().security()).isNull();
            assertThat(context.getBean(MeterRegistry.class).find(MetricNames.DDS_SECURITY_REFUSED)
                    .functionCounters()).extracting(counter -> counter.getId().getTag(MetricNames.TAG_REASON))
                    .containsExactlyInAnyOrder("forged-origin", "forged-receipt", "unauthenticated",
                            "authentication-failed", "not-permitted");
        });
        runner.withPropertyValues("gateway.node.transport=dds", "gateway.dds.security.directory=/etc/gateway/dds",
                "gateway.dds.security.governance=/srv/governance.p7s").run(context -> {
                    ParticipantSettings.Security security = context.getBean(DdsTransportSettings.class)
                            .participant().security();
                    assertThat(security.identityCertificate()).isEqualTo(Path.of("/etc/gateway/dds/a/identity.crt"));
                    assertThat(security.privateKey()).isEqualTo(Path.of("/etc/gateway/dds/a/identity.key"));
                    assertThat(security.identityCa()).isEqualTo(Path.of("/etc/gateway/dds/authority/ca.crt"));
                    assertThat(security.permissionsCa()).isEqualTo(Path.of("/etc/gateway/dds/authority/ca.crt"));
                    assertThat(security.governance()).isEqualTo(Path.of("/srv/governance.p7s"));
                    assertThat(security.permissions()).isEqualTo(Path.of("/etc/gateway/dds/dds/permissions.p7s"));
                });
        runner.withPropertyValues("gateway.node.transport=dds", "gateway.dds.security.identity-certificate=/a.pem")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.security.private-key"));
    }

    @Test
    void anInvalidDdsDomainFailsNamingTheProperties() {
        runner.withPropertyValues("gateway.node.transport=dds", PLAIN_DDS, "gateway.dds.domain-id=999")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("gateway.dds.domain-id=999")
                        .hasStackTraceContaining("domainId must be 0..232, was 999"));
    }

    @Test
    void aTransportBeanOfTheUsersOwnWins() {
        runner.withUserConfiguration(OwnTransport.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Transport.class).doesNotHaveBean(JmsTransport.class);
            assertThat(context.getBean(Transport.class)).isInstanceOf(RecordingTransport.class);
        });
    }

    @Test
    void aTransportBeanOfTheUsersOwnWinsOverDdsAndItsMetricsAndRouteMatching() {
        runner.withUserConfiguration(OwnTransport.class).withPropertyValues("gateway.node.transport=dds", PLAIN_DDS)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Transport.class)
                            .doesNotHaveBean(DdsTransport.class).doesNotHaveBean(DdsTransportMetrics.class)
                            .doesNotHaveBean(DdsRouteMatching.class);
                    assertThat(context.getBean(Transport.class)).isInstanceOf(RecordingTransport.class);
                });
    }
}

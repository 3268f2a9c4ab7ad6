package kr.c4i.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import javax.net.ssl.SSLHandshakeException;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** A peer that stays away is logged in full once per quiet period; any other failure every time. */
class RepeatedConnectFailureFilterTest {

    private static final String FAILED = "AMQ214016: Failed to create netty connection";

    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private Instant now = Instant.parse("2026-12-03T16:00:00Z");

    @BeforeEach
    void logToAList() {
        RepeatedConnectFailureFilter filter = new RepeatedConnectFailureFilter(new Clock() {
            @Override
            public Instant instant() {
                return RepeatedConnectFailureFilterTest.this.now;
            }

            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                throw new UnsupportedOperationException();
            }
        });
        filter.setContext(this.context);
        filter.start();
        this.context.addTurboFilter(filter);
        this.appender.setContext(this.context);
        this.appender.start();
        this.context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(this.appender);
    }

    @Test
    void eachAbsentPeersFailureIsLoggedOncePerQuietPeriod() {
        Logger artemis = this.context.getLogger(RepeatedConnectFailureFilter.ARTEMIS_CLIENT_LOGGER);
        for (int attempt = 0; attempt < 5; attempt++) {
            artemis.error(FAILED, new UnknownHostException("node-d"));
            artemis.error(FAILED, new ConnectException("Connection refused: node-b/172.31.77.5:61616"));
            this.now = this.now.plusSeconds(2);
        }
        artemis.error(FAILED, new UnknownHostException("node-e"));
        assertThat(throwableMessages()).containsExactly("node-d", "Connection refused: node-b/172.31.77.5:61616",
                "node-e");

        this.now = this.now.plus(RepeatedConnectFailureFilter.QUIET_PERIOD);
        artemis.error(FAILED, new UnknownHostException("node-d"));
        assertThat(throwableMessages()).hasSize(4).last().isEqualTo("node-d");
    }

    @Test
    void eachRetryingBridgeIsLoggedOncePerQuietPeriod() {
        Logger server = this.context.getLogger(RepeatedConnectFailureFilter.ARTEMIS_SERVER_LOGGER);
        String retrying = "AMQ224091: Bridge {} is unable to connect to destination. Retrying";
        for (int attempt = 0; attempt < 5; attempt++) {
            server.warn(retrying, "BridgeImpl@2b26315d [name=kmtf-bridge-to-d]");
            server.warn(retrying, "BridgeImpl@6f3fbb68 [name=kmtf-bridge-to-f]");
            this.now = this.now.plusSeconds(2);
        }
        assertThat(this.appender.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "AMQ224091: Bridge BridgeImpl@2b26315d [name=kmtf-bridge-to-d] is unable to connect to destination. "
                        + "Retrying",
                "AMQ224091: Bridge BridgeImpl@6f3fbb68 [name=kmtf-bridge-to-f] is unable to connect to destination. "
                        + "Retrying");

        this.now = this.now.plus(RepeatedConnectFailureFilter.QUIET_PERIOD);
        server.warn(retrying, "BridgeImpl@6f3fbb68 [name=kmtf-bridge-to-f]");
        assertThat(this.appender.list).hasSize(3);
    }

    @Test
    void otherFailuresAndOtherLoggersAreNeverDropped() {
        Logger artemis = this.context.getLogger(RepeatedConnectFailureFilter.ARTEMIS_CLIENT_LOGGER);
        Logger ours = this.context.getLogger("kr.c4i.gateway.jms.OutboundSender");
        for (int attempt = 0; attempt < 3; attempt++) {
            artemis.error(FAILED, new SSLHandshakeException("PKIX path building failed"));
            artemis.error("AMQ214017: Caught unexpected Throwable", new UnknownHostException("node-d"));
            ours.warn(FAILED, new UnknownHostException("node-d"));
            this.context.getLogger(RepeatedConnectFailureFilter.ARTEMIS_SERVER_LOGGER)
                    .warn("AMQ224092: Despite disabled persistence, page files will be persisted.");
        }
        assertThat(this.appender.list).hasSize(12);
    }

    @Test
    void aSpringApplicationGetsTheFilterOnce() {
        LoggerContext global = (LoggerContext) LoggerFactory.getILoggerFactory();
        try (ConfigurableApplicationContext first = run(); ConfigurableApplicationContext second = run()) {
            assertThat(global.getTurboFilterList()).filteredOn(RepeatedConnectFailureFilter.class::isInstance)
                    .hasSize(1);
        }
        finally {
            global.getTurboFilterList().removeIf(RepeatedConnectFailureFilter.class::isInstance);
        }
    }

    private static ConfigurableApplicationContext run() {
        return new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE).run();
    }

    private List<String> throwableMessages() {
        return this.appender.list.stream().map((event) -> event.getThrowableProxy().getMessage()).toList();
    }

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}

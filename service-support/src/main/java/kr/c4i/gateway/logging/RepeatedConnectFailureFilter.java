package kr.c4i.gateway.logging;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.jspecify.annotations.Nullable;
import org.slf4j.Marker;

/**
 * Keeps a broker peer that stays away from filling the log. A bridge or a pair's cluster connection retries an
 * absent peer every few seconds for ever, and Artemis logs every attempt twice: an error with the whole stack trace
 * of the failed connection (AMQ214016) and the bridge's warning that it retries (AMQ224091). On the compose stack
 * without its optional profiles that was 2.3 MB of log a minute per container. This filter lets each distinct
 * failure (the peer's name in the exception, or the bridge) through once per quiet period and drops its repeats,
 * so the log still says, every ten minutes, which peer is away and that it is being retried. A connection that
 * fails for another reason than a peer that does not resolve or answer (a refused certificate, say) is logged
 * every time.
 */
public final class RepeatedConnectFailureFilter extends TurboFilter {

    static final String ARTEMIS_CLIENT_LOGGER = "org.apache.activemq.artemis.core.client";

    static final String ARTEMIS_SERVER_LOGGER = "org.apache.activemq.artemis.core.server";

    static final String FAILED_CONNECTION = "AMQ214016";

    static final String BRIDGE_RETRYING = "AMQ224091";

    /** How long the repeats of one failure stay out of the log after it was logged. */
    public static final Duration QUIET_PERIOD = Duration.ofMinutes(10);

    // Distinct failures are few (one per peer address); the bound only keeps a changing set of names from growing.
    private static final int MAX_FAILURES = 1_000;

    private final Clock clock;
    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();

    public RepeatedConnectFailureFilter() {
        this(Clock.systemUTC());
    }

    RepeatedConnectFailureFilter(Clock clock) {
        this.clock = clock;
        setName("repeated-connect-failures");
    }

    @Override
    public FilterReply decide(@Nullable Marker marker, Logger logger, Level level, @Nullable String format,
            @Nullable Object @Nullable [] params, @Nullable Throwable failure) {
        String key = failureKey(logger.getName(), format, params, failure);
        if (key == null) {
            return FilterReply.NEUTRAL;
        }
        long now = this.clock.millis();
        Long last = this.lastLogged.get(key);
        if (last != null && now - last < QUIET_PERIOD.toMillis()) {
            return FilterReply.DENY;
        }
        if (this.lastLogged.size() >= MAX_FAILURES) {
            this.lastLogged.clear();
        }
        this.lastLogged.put(key, now);
        return FilterReply.NEUTRAL;
    }

    /** What makes one repeating failure, or {@code null} when the event is not one. */
    private static @Nullable String failureKey(String logger, @Nullable String format,
            @Nullable Object @Nullable [] params, @Nullable Throwable failure) {
        if (format == null) {
            return null;
        }
        if (format.startsWith(FAILED_CONNECTION) && logger.equals(ARTEMIS_CLIENT_LOGGER) && failure != null
                && unreachable(failure)) {
            return FAILED_CONNECTION + " " + failure.getClass().getName() + ": " + failure.getMessage();
        }
        if (format.startsWith(BRIDGE_RETRYING) && logger.equals(ARTEMIS_SERVER_LOGGER) && params != null
                && params.length == 1) {
            return BRIDGE_RETRYING + " " + params[0];
        }
        return null;
    }

    private static boolean unreachable(Throwable failure) {
        return failure instanceof UnknownHostException || failure instanceof ConnectException
                || failure instanceof NoRouteToHostException;
    }
}

package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.core.client.impl.ServerLocatorImpl;
import org.jspecify.annotations.Nullable;

/**
 * The checks that the settings of everything on an Artemis broker share: a node's JMS transport
 * ({@link JmsTransportSettings}) and a site's {@code jms} WAN link ({@code kr.c4i.gateway.jms.link.JmsLinkSettings}).
 * Each adds a {@link Problem} naming the setting to the caller's list, so the settings report every bad one at once.
 * Public only for the link's package.
 */
public final class BrokerSettingChecks {

    // Letters, digits and the separators Artemis treats literally: no wildcards ('#', '*') in names.
    private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private BrokerSettingChecks() {
    }

    /** An Artemis broker URL, such as {@code tcp://broker:61616}, as a client's server locator reads it. */
    public static void checkBrokerUrl(String name, String url, List<Problem> problems) {
        try (ServerLocator locator = ServerLocatorImpl.newLocator(url)) {
            locator.getStaticTransportConfigurations();
        }
        catch (RuntimeException ex) {
            problems.add(new Problem(name,
                    name + " '" + url + "' is not a valid Artemis broker URL: " + ex.getMessage()));
        }
    }

    /**
     * The prefix of the queues of the broker's owners (nodes or sites), one queue each, and the queue for what is
     * not valid: both valid names, the invalid queue outside the owners' names.
     *
     * @param owner what owns a queue, for the message: {@code node} or {@code site}
     */
    public static void checkQueues(@Nullable String queuePrefix, @Nullable String invalidQueue, String owner,
            List<Problem> problems) {
        checkQueueName("queuePrefix", queuePrefix, problems);
        checkQueueName("invalidQueue", invalidQueue, problems);
        if (queuePrefix != null && invalidQueue != null && invalidQueue.startsWith(queuePrefix)) {
            problems.add(new Problem("invalidQueue",
                    "invalidQueue '" + invalidQueue + "' must not start with queuePrefix '" + queuePrefix
                    + "', where it could clash with a " + owner + "'s queue"));
        }
    }

    /** The embedded broker's settings; their problems are named {@code embedded.*}. */
    public static void checkEmbedded(JmsTransportSettings.Embedded embedded, List<Problem> problems) {
        embedded.check(problems);
    }

    public static void requireText(String name, @Nullable String value, List<Problem> problems) {
        if (isBlank(value)) {
            problems.add(new Problem(name, name + " must not be blank"));
        }
    }

    public static void requirePositive(String name, @Nullable Duration value, List<Problem> problems) {
        if (value == null || value.isNegative() || value.isZero()) {
            problems.add(new Problem(name, name + " must be a positive duration, was " + value));
        }
    }

    /** {@code value} (an upper bound, such as a longest backoff) is not shorter than {@code lower}. */
    public static void requireAtLeast(String name, @Nullable Duration value, String lowerName,
            @Nullable Duration lower, List<Problem> problems) {
        if (value != null && lower != null && value.compareTo(lower) < 0) {
            problems.add(new Problem(name,
                    name + " (" + value + ") must not be shorter than " + lowerName + " (" + lower + ")"));
        }
    }

    /** An address that binds every interface, so that no one can connect to it as such. */
    static boolean isWildcardHost(String host) {
        return switch (host.strip()) {
            case "0.0.0.0", "", "::", "[::]", "::0" -> true;
            default -> false;
        };
    }

    public static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }

    private static void checkQueueName(String name, @Nullable String value, List<Problem> problems) {
        if (value == null || !QUEUE_NAME.matcher(value).matches()) {
            problems.add(new Problem(name, name + " '" + value + "' must be letters, digits, '.', '_' or '-'"));
        }
    }
}

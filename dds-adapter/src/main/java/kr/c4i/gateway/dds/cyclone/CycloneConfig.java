package kr.c4i.gateway.dds.cyclone;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Turns {@link ParticipantSettings} into the configuration string {@code dds_create_domain} takes: a
 * comma-separated list of sources, later ones overriding earlier ones. First the raw vendor configuration, or, if
 * there is none, the {@code CYCLONEDDS_URI} environment variable (which {@code dds_create_domain}, unlike an
 * implicitly created domain, does not read by itself); then an XML fragment for the typed settings (interface,
 * multicast, discovery peers, lease and announcements, datagram size, heartbeat and NACK timing, and
 * {@code Internal/WriteBatch} for {@link ParticipantSettings#writeBatch()}, and the {@code Security} section for
 * {@link ParticipantSettings#security()}).
 */
final class CycloneConfig {

    /** The environment variable Cyclone's own tools read. */
    static final String CYCLONEDDS_URI = "CYCLONEDDS_URI";

    /** Cyclone's default fragment size, which its default datagram sizes leave 112 bytes of header room. */
    static final int DEFAULT_FRAGMENT_SIZE = 1344;
    static final int HEADER_ROOM = 112;

    /** Cyclone's default base heartbeat interval. */
    static final long DEFAULT_HEARTBEAT_MILLIS = 100;

    /** Cyclone's default size for retransmits, which go out one sample per datagram. */
    static final int DEFAULT_REXMIT_MESSAGE_SIZE = 1456;

    private static final Pattern IP_ADDRESS = Pattern.compile("[0-9.]+|.*:.*");

    private CycloneConfig() {
    }

    static String build(ParticipantSettings settings, @Nullable String environment) {
        List<String> sources = new ArrayList<>();
        String vendorConfig = settings.vendor().config();
        if (vendorConfig != null) {
            sources.add(vendorConfig);
        }
        else if (environment != null && !environment.isBlank()) {
            sources.add(environment.strip());
        }
        String fragment = fragment(settings);
        if (!fragment.isEmpty()) {
            sources.add(fragment);
        }
        return String.join(",", sources);
    }

    private static String fragment(ParticipantSettings settings) {
        ParticipantSettings.Network network = settings.network();
        ParticipantSettings.Discovery announcements = settings.discovery();
        ParticipantSettings.Reliability reliability = settings.reliability();
        StringBuilder general = new StringBuilder();
        String networkInterface = network.networkInterface();
        if (networkInterface != null) {
            String attribute = IP_ADDRESS.matcher(networkInterface).matches() ? "address" : "name";
            general.append("<Interfaces><NetworkInterface ").append(attribute).append("=\"")
                    .append(escape(networkInterface)).append("\"/></Interfaces>");
        }
        if (network.multicast() != null) {
            general.append("<AllowMulticast>").append(network.multicast()).append("</AllowMulticast>");
        }
        Integer maxDatagramSize = network.maxDatagramSize();
        if (maxDatagramSize != null) {
            int max = maxDatagramSize;
            // Fragments and retransmits must fit the limit too, or they would still span several frames.
            general.append("<MaxMessageSize>").append(max).append("B</MaxMessageSize>")
                    .append("<MaxRexmitMessageSize>").append(Math.min(max, DEFAULT_REXMIT_MESSAGE_SIZE))
                    .append("B</MaxRexmitMessageSize>")
                    .append("<FragmentSize>").append(Math.min(DEFAULT_FRAGMENT_SIZE, max - HEADER_ROOM))
                    .append("B</FragmentSize>");
        }
        StringBuilder discovery = new StringBuilder();
        String multicastAddress = network.multicastAddress();
        if (multicastAddress != null) {
            String address = escape(multicastAddress);
            discovery.append("<SPDPMulticastAddress>").append(address).append("</SPDPMulticastAddress>")
                    .append("<DefaultMulticastAddress>").append(address).append("</DefaultMulticastAddress>");
        }
        Duration lease = announcements.lease();
        if (lease != null) {
            // Unless announceInterval sets SPDPInterval, Cyclone announces every 0.8 lease (below 10 s; lease - 2 s
            // above, at most 30 s): the announcements follow the lease.
            discovery.append("<LeaseDuration>").append(lease.toMillis()).append("ms</LeaseDuration>");
        }
        Duration announceInterval = announcements.announceInterval();
        if (announceInterval != null) {
            discovery.append("<SPDPInterval>").append(Math.max(1, announceInterval.toMillis()))
                    .append("ms</SPDPInterval>");
        }
        if (!network.peers().isEmpty()) {
            // Unicast discovery reaches a peer's participants only on the well-known ports of participant
            // indices, so indices must be assigned instead of Cyclone's default of ephemeral ports. Cyclone 0.10
            // sends to a peer's indices below MaxAutoParticipantIndex (0..max-1, seen in its trace), so max is the
            // participants per host: with max - 1 one of them was never announced to.
            discovery.append("<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>")
                    .append(announcements.participantsPerHost()).append("</MaxAutoParticipantIndex><Peers>");
            network.peers().forEach(peer -> discovery.append("<Peer address=\"").append(escape(peer))
                    .append("\"/>"));
            discovery.append("</Peers>");
        }
        // Cyclone 0.10 reads Internal/WriteBatch when each writer is created; dds_write_set_batch would change
        // every domain of the process instead.
        StringBuilder internal = new StringBuilder();
        if (settings.writeBatch() != null) {
            internal.append("<WriteBatch>").append(settings.writeBatch()).append("</WriteBatch>");
        }
        Duration heartbeatMaxInterval = reliability.heartbeatMaxInterval();
        if (heartbeatMaxInterval != null) {
            // The base interval stays Cyclone's 100 ms (or the bound, if lower); only its back-off is bounded.
            long max = Math.max(1, heartbeatMaxInterval.toMillis());
            internal.append("<HeartbeatInterval max=\"").append(max).append("ms\">")
                    .append(Math.min(DEFAULT_HEARTBEAT_MILLIS, max)).append("ms</HeartbeatInterval>");
        }
        Duration nackRepeatInterval = reliability.nackRepeatInterval();
        if (nackRepeatInterval != null) {
            internal.append("<AutoReschedNackDelay>").append(Math.max(1, nackRepeatInterval.toMillis()))
                    .append("ms</AutoReschedNackDelay>");
        }
        String security = CycloneSecurity.section(settings.security());
        if (general.isEmpty() && discovery.isEmpty() && internal.isEmpty() && security.isEmpty()) {
            return "";
        }
        StringBuilder xml = new StringBuilder("<CycloneDDS><Domain id=\"any\">");
        if (!general.isEmpty()) {
            xml.append("<General>").append(general).append("</General>");
        }
        if (!discovery.isEmpty()) {
            xml.append("<Discovery>").append(discovery).append("</Discovery>");
        }
        if (!internal.isEmpty()) {
            xml.append("<Internal>").append(internal).append("</Internal>");
        }
        xml.append(security);
        return xml.append("</Domain></CycloneDDS>").toString();
    }

    static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}

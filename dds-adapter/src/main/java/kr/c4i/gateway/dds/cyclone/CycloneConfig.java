package kr.c4i.gateway.dds.cyclone;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Turns {@link ParticipantSettings} into the configuration string {@code dds_create_domain} takes: a
 * comma-separated list of sources, later ones overriding earlier ones. First the raw vendor configuration, or, if
 * there is none, the {@code CYCLONEDDS_URI} environment variable (which {@code dds_create_domain}, unlike an
 * implicitly created domain, does not read by itself); then an XML fragment for the typed settings (interface,
 * multicast, discovery peers and announcements, datagram size, heartbeat and NACK timing, and
 * {@code Internal/WriteBatch} for {@link ParticipantSettings#writeBatch()}).
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

    static String build(ParticipantSettings settings, String environment) {
        List<String> sources = new ArrayList<>();
        if (settings.vendorConfig() != null) {
            sources.add(settings.vendorConfig());
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
        StringBuilder general = new StringBuilder();
        if (settings.networkInterface() != null) {
            String attribute = IP_ADDRESS.matcher(settings.networkInterface()).matches() ? "address" : "name";
            general.append("<Interfaces><NetworkInterface ").append(attribute).append("=\"")
                    .append(escape(settings.networkInterface())).append("\"/></Interfaces>");
        }
        if (settings.multicast() != null) {
            general.append("<AllowMulticast>").append(settings.multicast()).append("</AllowMulticast>");
        }
        if (settings.maxDatagramSize() != null) {
            int max = settings.maxDatagramSize();
            // Fragments and retransmits must fit the limit too, or they would still span several frames.
            general.append("<MaxMessageSize>").append(max).append("B</MaxMessageSize>")
                    .append("<MaxRexmitMessageSize>").append(Math.min(max, DEFAULT_REXMIT_MESSAGE_SIZE))
                    .append("B</MaxRexmitMessageSize>")
                    .append("<FragmentSize>").append(Math.min(DEFAULT_FRAGMENT_SIZE, max - HEADER_ROOM))
                    .append("B</FragmentSize>");
        }
        StringBuilder discovery = new StringBuilder();
        if (settings.multicastAddress() != null) {
            String address = escape(settings.multicastAddress());
            discovery.append("<SPDPMulticastAddress>").append(address).append("</SPDPMulticastAddress>")
                    .append("<DefaultMulticastAddress>").append(address).append("</DefaultMulticastAddress>");
        }
        if (settings.announceInterval() != null) {
            discovery.append("<SPDPInterval>").append(Math.max(1, settings.announceInterval().toMillis()))
                    .append("ms</SPDPInterval>");
        }
        if (!settings.peers().isEmpty()) {
            // Unicast discovery reaches a peer's participants only on the well-known ports of participant
            // indices, so indices must be assigned instead of Cyclone's default of ephemeral ports.
            discovery.append("<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>")
                    .append(participantsPerHost(settings) - 1).append("</MaxAutoParticipantIndex><Peers>");
            settings.peers().forEach(peer -> discovery.append("<Peer address=\"").append(escape(peer)).append("\"/>"));
            discovery.append("</Peers>");
        }
        // Cyclone 0.10 reads Internal/WriteBatch when each writer is created; dds_write_set_batch would change
        // every domain of the process instead.
        StringBuilder internal = new StringBuilder();
        if (settings.writeBatch() != null) {
            internal.append("<WriteBatch>").append(settings.writeBatch()).append("</WriteBatch>");
        }
        if (settings.heartbeatMaxInterval() != null) {
            // The base interval stays Cyclone's 100 ms (or the bound, if lower); only its back-off is bounded.
            long max = Math.max(1, settings.heartbeatMaxInterval().toMillis());
            internal.append("<HeartbeatInterval max=\"").append(max).append("ms\">")
                    .append(Math.min(DEFAULT_HEARTBEAT_MILLIS, max)).append("ms</HeartbeatInterval>");
        }
        if (settings.nackRepeatInterval() != null) {
            internal.append("<AutoReschedNackDelay>").append(Math.max(1, settings.nackRepeatInterval().toMillis()))
                    .append("ms</AutoReschedNackDelay>");
        }
        if (general.isEmpty() && discovery.isEmpty() && internal.isEmpty()) {
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
        return xml.append("</Domain></CycloneDDS>").toString();
    }

    /** Each costs one copy of every announcement per peer. */
    private static int participantsPerHost(ParticipantSettings settings) {
        return settings.maxParticipantsPerHost() != null ? settings.maxParticipantsPerHost()
                : ParticipantSettings.DEFAULT_PARTICIPANTS_PER_HOST;
    }

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}

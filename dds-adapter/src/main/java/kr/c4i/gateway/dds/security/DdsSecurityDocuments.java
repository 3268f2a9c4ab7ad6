package kr.c4i.gateway.dds.security;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

import kr.c4i.gateway.core.NodeId;

/**
 * The two XML documents of DDS Security's builtin access control, before signing.
 *
 * <p>Governance: no unauthenticated participant joins; discovery, liveliness and every RTPS message are encrypted
 * (AES-GCM, which also authenticates them), read and write access control is on for every topic, and topic data is
 * encrypted again with each writer's own key, which only the readers its permissions allow receive: a node not
 * allowed a topic cannot read it off multicast. Submessage metadata is not protected a second time (the RTPS
 * message encryption covers it on the wire): that layer cost a further factor 3 in throughput (docs/dds-security.md).
 * Permissions: one grant per node, subject the node's certificate subject, default DENY; see
 * {@link SecurePartitions} for the partitions each grant allows.
 */
public final class DdsSecurityDocuments {

    /** The largest domain id Cyclone's access control accepts in a document. */
    public static final int MAX_DOMAIN_ID = 230;

    private static final String HEADER = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<dds xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
            + "xsi:noNamespaceSchemaLocation=\"http://www.omg.org/spec/DDS-SECURITY/20170901/omg_shared_ca_";
    private static final DateTimeFormatter VALIDITY = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private DdsSecurityDocuments() {
    }

    /** The governance document for one domain. */
    public static String governance(int domainId) {
        checkDomain(domainId);
        return HEADER + "governance.xsd\">\n"
                + "  <domain_access_rules>\n    <domain_rule>\n"
                + "      <domains><id>" + domainId + "</id></domains>\n"
                + "      <allow_unauthenticated_participants>false</allow_unauthenticated_participants>\n"
                + "      <enable_join_access_control>true</enable_join_access_control>\n"
                + "      <discovery_protection_kind>ENCRYPT</discovery_protection_kind>\n"
                + "      <liveliness_protection_kind>ENCRYPT</liveliness_protection_kind>\n"
                + "      <rtps_protection_kind>ENCRYPT</rtps_protection_kind>\n"
                + "      <topic_access_rules>\n        <topic_rule>\n"
                + "          <topic_expression>*</topic_expression>\n"
                + "          <enable_discovery_protection>true</enable_discovery_protection>\n"
                + "          <enable_liveliness_protection>true</enable_liveliness_protection>\n"
                + "          <enable_read_access_control>true</enable_read_access_control>\n"
                + "          <enable_write_access_control>true</enable_write_access_control>\n"
                + "          <metadata_protection_kind>NONE</metadata_protection_kind>\n"
                + "          <data_protection_kind>ENCRYPT</data_protection_kind>\n"
                + "        </topic_rule>\n      </topic_access_rules>\n"
                + "    </domain_rule>\n  </domain_access_rules>\n</dds>\n";
    }

    /**
     * The permissions document: for each grant, its subject may write messages in its origins' partitions and
     * receipts as any of them, read messages from every origin and receipts addressed to its origins.
     *
     * @param subjects how to name each grant's node as its certificate's subject, e.g.
     *        {@code CN=a,OU=s1,O=c4i-gateway}
     */
    public static String permissions(int domainId, String receiptsTopic, Collection<NodeGrant> grants,
            Function<NodeGrant, String> subjects, Instant notBefore, Instant notAfter) {
        checkDomain(domainId);
        StringBuilder xml = new StringBuilder(HEADER).append("permissions.xsd\">\n  <permissions>\n");
        for (NodeGrant grant : grants) {
            List<String> origins = new TreeSet<>(grant.origins().stream().map(NodeId::value).toList()).stream()
                    .toList();
            xml.append("    <grant name=\"").append(escape(grant.node().value())).append("\">\n")
                    .append("      <subject_name>").append(escape(subjects.apply(grant))).append("</subject_name>\n")
                    .append("      <validity><not_before>")
                    .append(VALIDITY.format(notBefore.truncatedTo(ChronoUnit.SECONDS)))
                    .append("</not_before><not_after>")
                    .append(VALIDITY.format(notAfter.truncatedTo(ChronoUnit.SECONDS)))
                    .append("</not_after></validity>\n")
                    .append("      <allow_rule>\n        <domains><id>").append(domainId).append("</id></domains>\n");
            if (!grant.publishTopics().isEmpty()) {
                criteria(xml, "publish", grant.publishTopics(), origins.stream()
                        .map(o -> SecurePartitions.messages(NodeId.of(o))).toList());
            }
            criteria(xml, "publish", List.of(receiptsTopic), origins.stream()
                    .map(o -> SecurePartitions.receiptsBy(NodeId.of(o))).toList());
            if (!grant.subscribeTopics().isEmpty()) {
                criteria(xml, "subscribe", grant.subscribeTopics(), List.of(SecurePartitions.ALL_ORIGINS));
            }
            criteria(xml, "subscribe", List.of(receiptsTopic), origins.stream()
                    .map(o -> SecurePartitions.receiptsFor(NodeId.of(o))).toList());
            xml.append("      </allow_rule>\n      <default>DENY</default>\n    </grant>\n");
        }
        return xml.append("  </permissions>\n</dds>\n").toString();
    }

    private static void criteria(StringBuilder xml, String kind, Collection<String> topics,
            Collection<String> partitions) {
        xml.append("        <").append(kind).append(">\n          <topics>");
        new TreeSet<>(topics).forEach(t -> xml.append("<topic>").append(escape(t)).append("</topic>"));
        xml.append("</topics>\n          <partitions>");
        partitions.forEach(p -> xml.append("<partition>").append(escape(p)).append("</partition>"));
        xml.append("</partitions>\n        </").append(kind).append(">\n");
    }

    private static void checkDomain(int domainId) {
        if (domainId < 0 || domainId > MAX_DOMAIN_ID) {
            throw new IllegalArgumentException("DDS Security documents cover domains 0.." + MAX_DOMAIN_ID
                    + " (Cyclone's access control refuses larger ids), was " + domainId);
        }
    }

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}

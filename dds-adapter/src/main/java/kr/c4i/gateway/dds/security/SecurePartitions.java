package kr.c4i.gateway.dds.security;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import kr.c4i.gateway.core.NodeId;

/**
 * The partitions that bind who a sample claims to be to what its writer may write. DDS Security permissions grant
 * topics and partitions, not field values, so with security on a node writes its messages only in
 * {@code from.<origin>} and its receipts only in {@code receipt.<origin>.<receiver>}, its permissions grant it
 * only the partitions naming itself (and, on a WAN gateway, the origins it relays for), and the reading side checks
 * each sample's origin or receiver against the partition its writer is in. Node ids cannot contain {@code .} or
 * the wildcards {@code *} and {@code ?}, so each name parses back to one node.
 */
public final class SecurePartitions {

    /** What a data reader subscribes to: every origin's partition. */
    public static final String ALL_ORIGINS = "from.*";

    private static final String FROM = "from.";
    private static final String RECEIPT = "receipt.";

    private SecurePartitions() {
    }

    /** Where {@code origin}'s messages are written. */
    public static String messages(NodeId origin) {
        return FROM + origin.value();
    }

    /** Where {@code receiver} writes its receipts for {@code origin}'s messages. */
    public static String receipts(NodeId origin, NodeId receiver) {
        return RECEIPT + origin.value() + "." + receiver.value();
    }

    /** What {@code origin}'s receipt reader subscribes to: receipts from every receiver. */
    public static String receiptsFor(NodeId origin) {
        return RECEIPT + origin.value() + ".*";
    }

    /** The permission pattern for {@code receiver}'s receipt writers: to any origin, as itself only. */
    static String receiptsBy(NodeId receiver) {
        return RECEIPT + "*." + receiver.value();
    }

    /** The origins a message writer's partitions allow (empty for a writer outside them, e.g. the default). */
    public static Set<String> originsOf(List<String> writerPartitions) {
        return suffixes(writerPartitions, FROM);
    }

    /** The {@code origin.receiver} pairs a receipt writer's partitions allow, see {@link #receiptPair}. */
    public static Set<String> receiptPairsOf(List<String> writerPartitions) {
        return suffixes(writerPartitions, RECEIPT);
    }

    private static Set<String> suffixes(List<String> partitions, String prefix) {
        Set<String> values = new HashSet<>();
        for (String partition : partitions) {
            // A wildcard in a writer's partition is no grant to any one name.
            if (partition.startsWith(prefix) && partition.indexOf('*') < 0 && partition.indexOf('?') < 0) {
                values.add(partition.substring(prefix.length()));
            }
        }
        return values;
    }

    /** The pair {@link #receiptPairOf} returns for a receipt from {@code receiver} for {@code origin}. */
    public static String receiptPair(String origin, String receiver) {
        return origin + "." + receiver;
    }
}

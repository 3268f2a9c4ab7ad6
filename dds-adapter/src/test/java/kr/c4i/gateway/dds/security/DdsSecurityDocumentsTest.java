package kr.c4i.gateway.dds.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;

class DdsSecurityDocumentsTest {

    private static final NodeId GATEWAY = NodeId.of("gw");
    private static final NodeId REMOTE = NodeId.of("s2-a");

    @Test
    void aGrantAllowsItsOwnOriginsPartitionsOnlyAndReadingFromAll() {
        String permissions = DdsSecurityDocuments.permissions(7, "kmtf/gateway/receipts",
                List.of(new NodeGrant(GATEWAY, Set.of(GATEWAY, REMOTE), Set.of("kmtf/a"), Set.of("kmtf/b"))),
                g -> "CN=" + g.node().value() + ",OU=s1,O=c4i-gateway", Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2027-01-01T00:00:00.5Z"));

        assertThat(permissions).contains("<subject_name>CN=gw,OU=s1,O=c4i-gateway</subject_name>",
                "<not_before>2026-01-01T00:00:00</not_before><not_after>2027-01-01T00:00:00</not_after>",
                "<domains><id>7</id></domains>", "<default>DENY</default>",
                "<publish>\n          <topics><topic>kmtf/a</topic></topics>\n"
                        + "          <partitions><partition>from.gw</partition><partition>from.s2-a</partition>",
                "<publish>\n          <topics><topic>kmtf/gateway/receipts</topic></topics>\n"
                        + "          <partitions><partition>receipt.*.gw</partition>"
                        + "<partition>receipt.*.s2-a</partition>",
                "<subscribe>\n          <topics><topic>kmtf/b</topic></topics>\n"
                        + "          <partitions><partition>from.*</partition>",
                "<subscribe>\n          <topics><topic>kmtf/gateway/receipts</topic></topics>\n"
                        + "          <partitions><partition>receipt.gw.*</partition>"
                        + "<partition>receipt.s2-a.*</partition>");
    }

    @Test
    void theGovernanceCoversOneDomainWithinWhatCycloneAccepts() {
        assertThat(DdsSecurityDocuments.governance(230)).contains("<domains><id>230</id></domains>",
                "<allow_unauthenticated_participants>false</allow_unauthenticated_participants>",
                "<rtps_protection_kind>ENCRYPT</rtps_protection_kind>",
                "<data_protection_kind>ENCRYPT</data_protection_kind>");
        assertThatIllegalArgumentException().isThrownBy(() -> DdsSecurityDocuments.governance(231))
                .withMessageContaining("0..230");
    }

    @Test
    void writerPartitionsParseBackToTheOriginsAndPairsTheyGrantAndWildcardsGrantNothing() {
        assertThat(SecurePartitions.originsOf(List.of(SecurePartitions.messages(GATEWAY),
                SecurePartitions.messages(REMOTE), "from.*", "other"))).containsExactlyInAnyOrder("gw", "s2-a");
        assertThat(SecurePartitions.originsOf(List.of())).isEmpty();
        assertThat(SecurePartitions.receiptPairsOf(List.of(SecurePartitions.receipts(REMOTE, GATEWAY),
                SecurePartitions.receiptsFor(GATEWAY)))).containsExactly(SecurePartitions.receiptPair("s2-a", "gw"));
    }
}

package kr.c4i.gateway.dds.cyclone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.dds.ParticipantSettings;

class CycloneConfigTest {

    @Test
    void withoutSettingsTheEnvironmentVariableIsTheWholeConfiguration() {
        assertThat(CycloneConfig.build(ParticipantSettings.defaults(), null)).isEmpty();
        assertThat(CycloneConfig.build(ParticipantSettings.defaults(), " file:///etc/cyclone.xml "))
                .isEqualTo("file:///etc/cyclone.xml");
    }

    @Test
    void rawConfigurationReplacesTheEnvironmentVariable() {
        ParticipantSettings settings = ParticipantSettings.builder().vendorConfig("<CycloneDDS/>").build();
        assertThat(CycloneConfig.build(settings, "file:///etc/cyclone.xml")).isEqualTo("<CycloneDDS/>");
    }

    @Test
    void typedSettingsComeLastSoTheyOverrideAndAreEscaped() {
        ParticipantSettings settings = ParticipantSettings.builder().vendorConfig("<CycloneDDS/>")
                .networkInterface("eth0").multicast(true).multicastAddress("239.255.0.9")
                .peers(List.of("10.0.0.2", "host\"&")).build();
        assertThat(CycloneConfig.build(settings, null)).isEqualTo("<CycloneDDS/>,"
                + "<CycloneDDS><Domain id=\"any\"><General><Interfaces><NetworkInterface name=\"eth0\"/></Interfaces>"
                + "<AllowMulticast>true</AllowMulticast></General><Discovery>"
                + "<SPDPMulticastAddress>239.255.0.9</SPDPMulticastAddress>"
                + "<DefaultMulticastAddress>239.255.0.9</DefaultMulticastAddress>"
                + "<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>"
                + "<Peers><Peer address=\"10.0.0.2\"/><Peer address=\"host&quot;&amp;\"/></Peers>"
                + "</Discovery></Domain></CycloneDDS>");
    }

    @Test
    void securityBecomesTheSecuritySectionWithTheBuiltinPluginsAndTracesDiscoveryAndItsFilesMustExist(
            @TempDir Path dir)
            throws Exception {
        for (String name : List.of("cert.pem", "key.pem", "ca.pem", "gov.p7s", "perm.p7s")) {
            Files.writeString(dir.resolve(name), "x");
        }
        ParticipantSettings.Security security = new ParticipantSettings.Security(dir.resolve("cert.pem"),
                dir.resolve("key.pem"), dir.resolve("ca.pem"), dir.resolve("ca.pem"), dir.resolve("gov.p7s"),
                dir.resolve("perm.p7s"));
        String config = CycloneConfig.build(ParticipantSettings.builder().security(security).build(), null);
        // Discovery is traced for the handshake watch; the file is never written, the lines go to CycloneLog.
        assertThat(config).isEqualTo("<CycloneDDS><Domain id=\"any\"><Tracing><Category>discovery</Category>"
                + "<OutputFile>stderr</OutputFile></Tracing><Security><Authentication>"
                + "<Library path=\"dds_security_auth\" initFunction=\"init_authentication\" "
                + "finalizeFunction=\"finalize_authentication\"/>"
                + "<IdentityCA>file:" + dir.resolve("ca.pem") + "</IdentityCA>"
                + "<IdentityCertificate>file:" + dir.resolve("cert.pem") + "</IdentityCertificate>"
                + "<PrivateKey>file:" + dir.resolve("key.pem") + "</PrivateKey></Authentication><AccessControl>"
                + "<Library path=\"dds_security_ac\" initFunction=\"init_access_control\" "
                + "finalizeFunction=\"finalize_access_control\"/>"
                + "<PermissionsCA>file:" + dir.resolve("ca.pem") + "</PermissionsCA>"
                + "<Governance>file:" + dir.resolve("gov.p7s") + "</Governance>"
                + "<Permissions>file:" + dir.resolve("perm.p7s") + "</Permissions></AccessControl><Cryptographic>"
                + "<Library path=\"dds_security_crypto\" initFunction=\"init_crypto\" "
                + "finalizeFunction=\"finalize_crypto\"/></Cryptographic></Security></Domain></CycloneDDS>");

        Files.delete(dir.resolve("gov.p7s"));
        assertThatThrownBy(() -> CycloneConfig.build(ParticipantSettings.builder().security(security).build(), null))
                .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("governance")
                .hasMessageContaining("gov.p7s").hasMessageContaining("does not exist");
    }

    @Test
    void anInterfaceGivenByAddressIsMatchedByAddress() {
        ParticipantSettings settings = ParticipantSettings.builder().networkInterface("192.0.2.2").build();
        assertThat(CycloneConfig.build(settings, null)).contains("<NetworkInterface address=\"192.0.2.2\"/>");
    }

    @Test
    void writeBatchIsSetPerDomainThroughInternalWriteBatchOnlyWhenGiven() {
        assertThat(CycloneConfig.build(ParticipantSettings.builder().writeBatch(true).build(), null))
                .isEqualTo("<CycloneDDS><Domain id=\"any\"><Internal><WriteBatch>true</WriteBatch></Internal>"
                        + "</Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.builder().multicast(false).writeBatch(false).build(),
                "<CycloneDDS/>")).isEqualTo("<CycloneDDS/>,<CycloneDDS><Domain id=\"any\"><General>"
                        + "<AllowMulticast>false</AllowMulticast></General>"
                        + "<Internal><WriteBatch>false</WriteBatch></Internal></Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.builder().vendorConfig("<CycloneDDS/>").build(), null))
                .doesNotContain("WriteBatch");
    }

    @Test
    void maxDatagramSizeBoundsMessagesRetransmitsAndFragments() {
        assertThat(CycloneConfig.build(ParticipantSettings.builder().maxDatagramSize(1400).build(), null))
                .isEqualTo("<CycloneDDS><Domain id=\"any\"><General><MaxMessageSize>1400B</MaxMessageSize>"
                        + "<MaxRexmitMessageSize>1400B</MaxRexmitMessageSize><FragmentSize>1288B</FragmentSize>"
                        + "</General></Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.builder().maxDatagramSize(8000).build(), null))
                .contains("<MaxMessageSize>8000B</MaxMessageSize>")
                .contains("<MaxRexmitMessageSize>1456B</MaxRexmitMessageSize><FragmentSize>1344B</FragmentSize>");
    }

    @Test
    void unicastDiscoveryReachesAsManyParticipantsPerPeerHostAsAsked() {
        ParticipantSettings peers = ParticipantSettings.builder().peers(List.of("10.0.0.2")).build();
        assertThat(CycloneConfig.build(peers.toBuilder().maxParticipantsPerHost(4).build(), null))
                .contains("<MaxAutoParticipantIndex>4</MaxAutoParticipantIndex>");
        assertThat(CycloneConfig.build(peers, null)).contains("<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>");
        assertThatIllegalArgumentException().isThrownBy(() -> peers.toBuilder().maxParticipantsPerHost(120).build())
                .withMessageContaining("1..119");
    }

    @Test
    void announcementsAreSetOnlyWhenGivenAndMustComeWithinTheLease() {
        assertThat(CycloneConfig.build(ParticipantSettings.builder().announceInterval(Duration.ofMillis(500)).build(),
                null)).isEqualTo("<CycloneDDS><Domain id=\"any\"><Discovery><SPDPInterval>500ms</SPDPInterval>"
                        + "</Discovery></Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.defaults(), null)).doesNotContain("SPDPInterval");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ParticipantSettings.builder().announceInterval(Duration.ofSeconds(10)).build())
                .withMessageContaining("lease");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ParticipantSettings.builder().announceInterval(Duration.ZERO).build())
                .withMessageContaining("positive");
    }

    @Test
    void theLeaseIsSetOnlyWhenGivenAndAnnouncementsAreLeftToFollowIt() {
        assertThat(CycloneConfig.build(ParticipantSettings.builder().lease(Duration.ofMillis(2500)).build(), null))
                .isEqualTo("<CycloneDDS><Domain id=\"any\"><Discovery><LeaseDuration>2500ms</LeaseDuration>"
                        + "</Discovery></Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.builder().lease(Duration.ofSeconds(5))
                .announceInterval(Duration.ofSeconds(1)).build(), null))
                .contains("<Discovery><LeaseDuration>5000ms</LeaseDuration><SPDPInterval>1000ms</SPDPInterval>");
        assertThat(CycloneConfig.build(ParticipantSettings.defaults(), null)).doesNotContain("LeaseDuration");
    }

    @Test
    void heartbeatBackOffAndNackRepeatAreBoundedOnlyWhenGiven() {
        ParticipantSettings settings = ParticipantSettings.builder().heartbeatMaxInterval(Duration.ofMillis(300))
                .nackRepeatInterval(Duration.ofMillis(250)).build();
        assertThat(CycloneConfig.build(settings, null)).isEqualTo("<CycloneDDS><Domain id=\"any\"><Internal>"
                + "<HeartbeatInterval max=\"300ms\">100ms</HeartbeatInterval>"
                + "<AutoReschedNackDelay>250ms</AutoReschedNackDelay></Internal></Domain></CycloneDDS>");
        assertThat(CycloneConfig.build(ParticipantSettings.builder().heartbeatMaxInterval(Duration.ofMillis(40)).build(),
                null)).contains("<HeartbeatInterval max=\"40ms\">40ms</HeartbeatInterval>");
        assertThat(CycloneConfig.build(ParticipantSettings.defaults(), null)).isEmpty();
    }
}

package kr.c4i.gateway.dds.cyclone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.dds.SecurityRefusals;

/**
 * Lines Cyclone 0.10.2 (Debian) logged on node bravo of site s1, domain 77, with discovery traced, while intruders
 * joined from other processes; the header (timestamp, domain, thread) is cut off as the sink receives it.
 */
class HandshakeWatchTest {

    /** A participant without security: its SPDP, then each builtin endpoint refused, then it leaves. */
    static final List<String> UNAUTHENTICATED = List.of(
            "SPDP ST0 110c118:eb028a12:19a64aa4:1c1 bes fc3f NEW (0x00000000-0x0000002c-0x00000000-0x00000000-"
                    + "0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26663@1 meta udp/127.0.0.1:26662@1) "
                    + "QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"3370\",1:\"__Hostname\":"
                    + "\"vm\"}:{}}",
            "Non secure remote writer 110c118:eb028a12:19a64aa4:3c2 is not allowed.connect_proxy_writer_with_reader "
                    + "(pwr 110c118:eb028a12:19a64aa4:3c2) with (rd b01f1c88:5f5df29e:68ad5f51:3c7) not allowed by "
                    + "security",
            "Non secure remote reader 110c118:eb028a12:19a64aa4:3c7 is not allowed.connect_writer_with_proxy_reader "
                    + "(wr b01f1c88:5f5df29e:68ad5f51:3c2) with (prd 110c118:eb028a12:19a64aa4:3c7) not allowed by "
                    + "security",
            "Non secure remote writer 110c118:eb028a12:19a64aa4:4c2 is not allowed.connect_proxy_writer_with_reader "
                    + "(pwr 110c118:eb028a12:19a64aa4:4c2) with (rd b01f1c88:5f5df29e:68ad5f51:4c7) not allowed by "
                    + "security",
            "Non secure remote reader 110c118:eb028a12:19a64aa4:301c4 is not allowed."
                    + "connect_writer_with_proxy_reader (wr b01f1c88:5f5df29e:68ad5f51:301c3) with "
                    + "(prd 110c118:eb028a12:19a64aa4:301c4) not allowed by security",
            "SPDP ST3 110c118:eb028a12:19a64aa4:1c1ddsi_delete_proxy_participant_by_guid("
                    + "110c118:eb028a12:19a64aa4:1c1) - deleting",
            "gc_delete_proxy_participant(0x7f76e00068f0, 110c118:eb028a12:19a64aa4:1c1)");

    /** Another authority's certificate, bravo replying: a warning per resend for 100 s, then Cyclone gives up. */
    static final List<String> UNTRUSTED_REPLYING = withRetries(List.of(
            "SPDP ST0 9fa7c5c2:7ee6fe01:247e44c2:1c1 bes ffffc3f (secure) NEW (0x00000000-0x0000002c-0x00000000-"
                    + "0x00000000-0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26663@1 meta "
                    + "udp/127.0.0.1:26662@1) QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"9761\","
                    + "1:\"__Hostname\":\"vm\"}:{}}"),
            "Begin handshake reply failed: Certificate not valid: error: unable to get local issuer certificate; "
                    + "subject: /O=c4i-gateway/OU=s2/CN=foxtrot(code: 200)", 200, List.of(
            "handshake (lguid=b01f1c88:5f5d74cc:aee309:1c1 rguid=9fa7c5c2:7ee6fe01:247e44c2:1c1) failed: (1) "
                    + "Timed out",
            "SPDP ST3 9fa7c5c2:7ee6fe01:247e44c2:1c1ddsi_delete_proxy_participant_by_guid("
                    + "9fa7c5c2:7ee6fe01:247e44c2:1c1) - deleting"));

    /** Another authority's certificate, bravo asking: nothing in bravo's log until Cyclone gives up after 100 s. */
    static final List<String> UNTRUSTED_ASKING_TIMED_OUT = List.of(
            "SPDP ST0 cc5ce2fc:a03fa9a:c86eef6a:1c1 bes ffffc3f (secure) NEW (0x00000000-0x0000002c-0x00000000-"
                    + "0x00000000-0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26665@1 meta "
                    + "udp/127.0.0.1:26664@1) QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"9763\","
                    + "1:\"__Hostname\":\"vm\"}:{}}",
            "handshake (lguid=b01f1c88:5f5d74cc:aee309:1c1 rguid=cc5ce2fc:a03fa9a:c86eef6a:1c1) failed: (1) "
                    + "Timed out",
            "SPDP ST3 cc5ce2fc:a03fa9a:c86eef6a:1c1ddsi_delete_proxy_participant_by_guid("
                    + "cc5ce2fc:a03fa9a:c86eef6a:1c1) - deleting");

    /** The same, the intruder gone after 8 s, long before Cyclone would give up. */
    static final List<String> UNTRUSTED_ASKING_LEFT = List.of(
            "SPDP ST0 cc5ce2fc:a03a7f7:436879b8:1c1 bes ffffc3f (secure) NEW (0x00000000-0x0000002c-0x00000000-"
                    + "0x00000000-0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26663@1 meta "
                    + "udp/127.0.0.1:26662@1) QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"3408\","
                    + "1:\"__Hostname\":\"vm\"}:{}}",
            "SPDP ST3 cc5ce2fc:a03a7f7:436879b8:1c1ddsi_delete_proxy_participant_by_guid("
                    + "cc5ce2fc:a03a7f7:436879b8:1c1) - deleting",
            "gc_delete_proxy_participant(0x7f76e0010430, cc5ce2fc:a03a7f7:436879b8:1c1)");

    /** A certificate of this site's authority with permissions another authority signed. */
    static final List<String> FORGED_PERMISSIONS = List.of(
            "SPDP ST0 edafd671:5a9c5d3a:57da20e2:1c1 bes ffffc3f (secure) NEW (0x00000000-0x0000002c-0x00000000-"
                    + "0x00000000-0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26663@1 meta "
                    + "udp/127.0.0.1:26662@1) QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"3646\","
                    + "1:\"__Hostname\":\"vm\"}:{}}",
            "handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=edafd671:5a9c5d3a:57da20e2:1c1) processed",
            "Could not get remote participant edafd671:5a9c5d3a:57da20e2:1c1 permissions from plugin: Failed to parse "
                    + "PKCS7 SMIME document: C07691EC767F0000:error:10800075:PKCS7 routines:PKCS7_verify:certificate "
                    + "verify error:../crypto/pkcs7/pk7_smime.c:292:Verify error: self-signed certificate\n"
                    + "(code: 127)",
            "SPDP ST3 edafd671:5a9c5d3a:57da20e2:1c1ddsi_delete_proxy_participant_by_guid("
                    + "edafd671:5a9c5d3a:57da20e2:1c1) - deleting");

    /** A genuine node: authenticated; its dispose is not trusted, so its lease expires later. */
    static final List<String> GENUINE = List.of(
            "SPDP ST0 83caa5eb:2ea5b906:299e6150:1c1 bes ffffc3f (secure) NEW (0x00000000-0x0000002c-0x00000000-"
                    + "0x00000000-0x00000000 vm/0.10.2/Linux/Linux) (data udp/127.0.0.1:26663@1 meta "
                    + "udp/127.0.0.1:26662@1) QOS={property_list={1:\"__ProcessName\":\"probe\",1:\"__Pid\":\"3769\","
                    + "1:\"__Hostname\":\"vm\"}:{}}",
            "handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=83caa5eb:2ea5b906:299e6150:1c1) processed",
            "match volatile endpoints (pp b01f1c88:5f5df29e:68ad5f51:1c1) with "
                    + "(proxypp 83caa5eb:2ea5b906:299e6150:1c1)",
            "handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=83caa5eb:2ea5b906:299e6150:1c1) send tokens",
            "handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=83caa5eb:2ea5b906:299e6150:1c1) succeeded",
            "SPDP ST3 83caa5eb:2ea5b906:299e6150:1c1 not allowed",
            "ddsi_delete_proxy_participant_by_guid(83caa5eb:2ea5b906:299e6150:1c1) - deleting",
            "gc_delete_proxy_participant(0x7f76e4002fb0, 83caa5eb:2ea5b906:299e6150:1c1)");

    private final HandshakeWatch watch = new HandshakeWatch();

    @Test
    void aParticipantWithoutSecurityIsCountedOnceThoughEachOfItsEndpointsIsRefused() {
        UNAUTHENTICATED.forEach(this.watch::accept);
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(1, 0, 0));
    }

    @Test
    void anUntrustedCertificateIsCountedOnceWhenCycloneGivesUpNotPerResend() {
        UNTRUSTED_REPLYING.subList(0, UNTRUSTED_REPLYING.size() - 2).forEach(this.watch::accept);
        assertThat(this.watch.refusals()).as("200 resends, still authenticating").isEqualTo(SecurityRefusals.NONE);
        UNTRUSTED_REPLYING.subList(UNTRUSTED_REPLYING.size() - 2, UNTRUSTED_REPLYING.size())
                .forEach(this.watch::accept);
        UNTRUSTED_ASKING_TIMED_OUT.forEach(this.watch::accept);
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 2, 0));
    }

    @Test
    void anUntrustedCertificateThatLeavesBeforeCycloneGivesUpIsCountedWhenItLeaves() {
        UNTRUSTED_ASKING_LEFT.forEach(this.watch::accept);
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 1, 0));
    }

    @Test
    void permissionsOfAnotherAuthorityAreNotPermittedOnce() {
        FORGED_PERMISSIONS.subList(0, 3).forEach(this.watch::accept);
        // Had it stayed, Cyclone would have timed the handshake out: the same participant, not counted again.
        this.watch.accept("handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=edafd671:5a9c5d3a:57da20e2:1c1) "
                + "failed: (1) Timed out");
        this.watch.accept(FORGED_PERMISSIONS.get(3));
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 0, 1));
    }

    @Test
    void aGenuineNodeIsNotCountedWhenItLeaves() {
        GENUINE.forEach(this.watch::accept);
        assertThat(this.watch.refusals()).isEqualTo(SecurityRefusals.NONE);
    }

    @Test
    void theSameCertificateInANewProcessIsANewAttempt() {
        // Two runs of another authority's "alpha": the GUID's first word comes from the certificate, the rest not.
        UNTRUSTED_ASKING_LEFT.forEach(this.watch::accept);
        UNTRUSTED_ASKING_TIMED_OUT.forEach(this.watch::accept);
        assertThat(this.watch.refusals().byReason()).containsExactly(
                Map.entry(SecurityRefusals.AUTHENTICATION_FAILED, 2L), Map.entry(SecurityRefusals.NOT_PERMITTED, 0L),
                Map.entry(SecurityRefusals.UNAUTHENTICATED, 0L));
    }

    /** Bravo's participant before and after it was recreated, and a genuine node whose handshake timed out. */
    private static final String BRAVO = "b01f1c88:5f5d74cc:aee309";
    private static final String BRAVO_RECREATED = "b01f1c88:6e0b13f2:1d04c7a";
    private static final String LOST = "83caa5eb:2ea5b906:299e6150";

    @Test
    void aHandshakeThatTimedOutWithAParticipantStillThereIsFailedForThatLocalParticipantOnly() {
        this.watch.accept(GENUINE.getFirst());
        this.watch.accept("handshake (lguid=" + BRAVO + ":1c1 rguid=" + LOST + ":1c1) failed: (1) Timed out");

        assertThat(this.watch.failedWith(BRAVO)).containsExactly(LOST);
        assertThat(this.watch.failedWith(BRAVO_RECREATED)).isEmpty();
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 1, 0));
    }

    @Test
    void aFailedHandshakeRedoneByANewLocalParticipantIsNoLongerFailedNorCountedAgain() {
        this.watch.accept(GENUINE.getFirst());
        this.watch.accept("handshake (lguid=" + BRAVO + ":1c1 rguid=" + LOST + ":1c1) failed: (1) Timed out");
        this.watch.accept("handshake (lguid=" + BRAVO_RECREATED + ":1c1 rguid=" + LOST + ":1c1) succeeded");
        this.watch.forget(BRAVO);

        assertThat(this.watch.failedWith(BRAVO)).isEmpty();
        assertThat(this.watch.failedWith(BRAVO_RECREATED)).isEmpty();
        // It leaves authenticated: counted once, when its first handshake failed.
        this.watch.accept(GENUINE.get(6));
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 1, 0));
    }

    @Test
    void aParticipantThatLeftOrWasRefusedForItsPermissionsIsNotFailed() {
        UNTRUSTED_ASKING_TIMED_OUT.subList(0, 2).forEach(this.watch::accept);
        assertThat(this.watch.failedWith("b01f1c88:5f5d74cc:aee309")).containsExactly("cc5ce2fc:a03fa9a:c86eef6a");
        this.watch.accept(UNTRUSTED_ASKING_TIMED_OUT.get(2));
        assertThat(this.watch.failedWith("b01f1c88:5f5d74cc:aee309")).isEmpty();

        // A new handshake would be refused again.
        FORGED_PERMISSIONS.subList(0, 3).forEach(this.watch::accept);
        this.watch.accept("handshake (lguid=b01f1c88:5f5df29e:68ad5f51:1c1 rguid=edafd671:5a9c5d3a:57da20e2:1c1) "
                + "failed: (1) Timed out");
        assertThat(this.watch.failedWith("b01f1c88:5f5df29e:68ad5f51")).isEmpty();
    }

    @Test
    void atMostMaxParticipantsAreFollowedAndTheFirstDiscoveredIsForgottenFirst() {
        for (int i = 0; i < HandshakeWatch.MAX_PARTICIPANTS; i++) {
            this.watch.accept("SPDP ST0 " + remote(i) + ":1c1 bes ffffc3f (secure) NEW");
        }
        // Failing after the others were discovered does not renew the first two.
        for (int i = 0; i < 2; i++) {
            this.watch.accept("handshake (lguid=" + BRAVO + ":1c1 rguid=" + remote(i) + ":1c1) failed: (1) Timed out");
        }
        this.watch.accept("SPDP ST0 " + remote(HandshakeWatch.MAX_PARTICIPANTS) + ":1c1 bes ffffc3f (secure) NEW");

        assertThat(this.watch.failedWith(BRAVO)).containsExactly(remote(1));
        assertThat(this.watch.refusals()).isEqualTo(new SecurityRefusals(0, 2, 0));
    }

    private static String remote(int i) {
        return "a11ce:" + Integer.toHexString(i) + ":1";
    }

    @Test
    void theDomainIsReadFromTheLineHeader() {
        assertThat(CycloneLog.domainId("1795424082.685159 [77]        fsm: ")).isEqualTo(77);
        // The process-wide log, for which Cyclone prints no domain.
        assertThat(CycloneLog.domainId("1795424082.685159 []        fsm: ")).isEqualTo(-1);
    }

    private static List<String> withRetries(List<String> before, String retry, int times, List<String> after) {
        List<String> lines = new ArrayList<>(before);
        lines.addAll(Collections.nCopies(times, retry));
        lines.addAll(after);
        return List.copyOf(lines);
    }

}

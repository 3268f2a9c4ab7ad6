package kr.c4i.gateway.wan.seal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.pki.Identity;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;

/**
 * Site authorities of s1, s2 and s3, each with its gateway's identity, and a rogue authority that names itself s1,
 * made once per test JVM (key generation is the slow part).
 */
final class TestPki {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final SiteId S3 = SiteId.of("s3");

    static final SiteAuthority AUTHORITY_S1 = SiteAuthority.create("s1", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
    static final SiteAuthority AUTHORITY_S2 = SiteAuthority.create("s2", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
    static final SiteAuthority AUTHORITY_S3 = SiteAuthority.create("s3", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
    /** Not trusted by anyone, though it calls its site s1. */
    static final SiteAuthority ROGUE = SiteAuthority.create("s1", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);

    static final Identity GW_S1 = gateway(AUTHORITY_S1, "s1");
    static final Identity GW_S2 = gateway(AUTHORITY_S2, "s2");
    static final Identity GW_S3 = gateway(AUTHORITY_S3, "s3");
    static final Identity ROGUE_S1 = gateway(ROGUE, "s1");

    private TestPki() {
    }

    static Identity gateway(SiteAuthority authority, String site) {
        return authority.issue(IdentityRequest.loopback("gw-" + site), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
    }

    /** The credentials of {@code self} holding {@code identity}, trusting the three sites, knowing these peers. */
    static SiteCredentials credentials(SiteId self, Identity identity, Map<SiteId, Identity> peers) {
        Map<SiteId, java.security.cert.X509Certificate> certificates = new LinkedHashMap<>();
        peers.forEach((site, peer) -> certificates.put(site, peer.certificate()));
        return SiteCredentials.of(self, identity.certificate(), identity.privateKey(), List.of(
                AUTHORITY_S1.certificate(), AUTHORITY_S2.certificate(), AUTHORITY_S3.certificate()), certificates);
    }

    /** Credentials that do not check the own certificate: an attacker's, sealing with whatever it holds. */
    static SiteCredentials forged(SiteId claimed, Identity identity, SiteId peer, Identity peerIdentity) {
        byte[] shared = FrameKeys.agree(identity.privateKey(), peerIdentity.certificate().getPublicKey());
        return new SiteCredentials(claimed, identity.certificate(), identity.privateKey(), Map.of(peer,
                new SiteCredentials.Peer(peer, peerIdentity.certificate(), FrameKeys.keyId(peerIdentity.certificate()),
                        shared)));
    }
}

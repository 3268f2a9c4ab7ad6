package kr.c4i.gateway.wan.seal;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.wan.config.WanSecurityProperties;

/** The gateway's WAN link security from its {@code gateway.wan.security.*} properties. */
public final class WanSecurity {

    private static final Logger log = LoggerFactory.getLogger(WanSecurity.class);

    private WanSecurity() {
    }

    /**
     * The gateway's checked credentials, or null when the operator chose plain frames.
     *
     * @throws IllegalStateException when neither is configured, both are, or a file or certificate fails
     */
    public static @Nullable SiteCredentials credentials(WanSecurityProperties security, SiteId site) {
        if (security.plain()) {
            if (security.certificate() != null) {
                throw new IllegalStateException("gateway.wan.security.plain=true and gateway.wan.security.certificate "
                        + "are both set: choose sealed frames (remove plain) or plain ones (remove the certificate)");
            }
            log.warn("The WAN link carries frames unauthenticated and in clear (gateway.wan.security.plain=true): "
                    + "anyone who reaches the link can read, forge and replay them");
            return null;
        }
        Path certificate = security.certificate();
        Path privateKey = security.privateKey();
        if (certificate == null || privateKey == null) {
            throw new IllegalStateException("The WAN link needs this gateway's identity: set "
                    + "gateway.wan.security.certificate, private-key, trusted-authorities and peers.<site> "
                    + "(docs/wan-gateway.md, \"Security\"), or gateway.wan.security.plain=true for frames in clear");
        }
        Map<SiteId, Path> peers = new LinkedHashMap<>();
        security.peers().forEach((id, file) -> peers.put(SiteId.of(id), file));
        try {
            return SiteCredentials.read(site, certificate, privateKey, security.trustedAuthorities(), peers);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The link sealed, its refusals counted as {@link MetricNames#WAN_FRAMES_REFUSED}. */
    public static SealedWanLink seal(WanLink link, SiteCredentials credentials, MeterRegistry registry) {
        try {
            return new SealedWanLink(link, credentials, (from, reason) -> Counter
                    .builder(MetricNames.WAN_FRAMES_REFUSED)
                    .description("Sealed WAN frames refused before the gateway read them")
                    .tag(MetricNames.TAG_SITE, from.value()).tag(MetricNames.TAG_REASON, reason.label())
                    .register(registry).increment());
        }
        catch (IllegalArgumentException e) {
            link.close();
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}

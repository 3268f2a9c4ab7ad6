package kr.c4i.gateway.wan.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the WAN link's frames are protected (docs/wan-gateway.md, "Security"): sealed per peer site with keys from the
 * gateways' site certificates, unless an operator asks for plain frames. The gateway does not start with neither.
 *
 * @param plain true to send and take frames unauthenticated and in clear (a lab, a measurement); never with
 *        {@code certificate} set
 * @param certificate this gateway's certificate (PEM), issued by its site's authority with OU = its site
 * @param privateKey the certificate's private key (PEM, unencrypted; keep the file readable by the gateway only)
 * @param trustedAuthorities the site authorities' certificates (PEM) peer gateways' certificates must chain to
 * @param peers peer site id to its gateway's certificate (PEM), e.g.
 *        {@code gateway.wan.security.peers.s2=/etc/c4i/pki/gw-s2.crt}
 */
@ConfigurationProperties("gateway.wan.security")
public record WanSecurityProperties(@DefaultValue("false") boolean plain, @Nullable Path certificate,
        @Nullable Path privateKey, List<Path> trustedAuthorities, Map<String, Path> peers) {

    public WanSecurityProperties {
        trustedAuthorities = trustedAuthorities == null ? List.of() : List.copyOf(trustedAuthorities);
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }
}

package kr.c4i.gateway.wan.config;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.dds.security.DdsSecurityOptions;

/**
 * DDS Security of the gateway's participant on its site's DDS domain, as for a node ({@code gateway.dds.security.*}):
 * each file left unset is taken from {@code directory}, laid out as {@code gateway pki --dds-domain} writes a site's
 * set, under the gateway's node id ({@code <gateway>/identity.crt}, {@code <gateway>/identity.key}). Its grant must
 * name the nodes at other sites it relays for ({@code gateway pki --gateway}). Required unless {@code plain} is set.
 *
 * @param directory the site's DDS Security set, from which unset files are taken
 * @param identityCertificate the gateway's certificate (PEM)
 * @param privateKey its private key (PEM)
 * @param identityCa the CA every participant's certificate must chain to (PEM)
 * @param permissionsCa the CA that signed the governance and permissions documents (PEM)
 * @param governance the signed governance document
 * @param permissions the signed permissions document, with the gateway's grant
 * @param plain true to join the site's domain without DDS Security, as its nodes then do; a DDS LAN side with neither
 *        this nor {@code directory} or {@code identity-certificate} does not start
 */
public record DdsSecurityProperties(@Nullable Path directory, @Nullable Path identityCertificate,
        @Nullable Path privateKey, @Nullable Path identityCa, @Nullable Path permissionsCa, @Nullable Path governance,
        @Nullable Path permissions, @DefaultValue("false") boolean plain) {

    /** The files as the DDS adapter resolves them, for the gateway's LAN side as for a node. */
    public DdsSecurityOptions options() {
        return new DdsSecurityOptions(this.directory, this.identityCertificate, this.privateKey, this.identityCa,
                this.permissionsCa, this.governance, this.permissions, this.plain);
    }
}

package kr.c4i.gateway.dds.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.pki.Identity;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.PemFiles;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.SiteAuthority;

/**
 * Writes a site's whole DDS Security set into a directory laid out as {@link kr.c4i.gateway.pki.SiteDirectory}
 * lays out a site's PKI: the authority's certificate (identity and permissions CA), the signed governance and
 * permissions documents, and per node its certificate and key (owner-only):
 *
 * <pre>
 * dir/authority/ca.crt  dir/dds/governance.p7s  dir/dds/permissions.p7s  dir/a/identity.crt  dir/a/identity.key ...
 * </pre>
 *
 * The operator command and tests call {@link #write}; a node's participant settings name the files through
 * {@link #security(Path, NodeId)}.
 */
public final class DdsSecurityFiles {

    public static final String CA = SiteDirectory.AUTHORITY + "/" + SiteDirectory.AUTHORITY_CERTIFICATE;
    public static final String GOVERNANCE = "dds/governance.p7s";
    public static final String PERMISSIONS = "dds/permissions.p7s";
    public static final String CERTIFICATE = SiteDirectory.CERTIFICATE;
    public static final String PRIVATE_KEY = SiteDirectory.PRIVATE_KEY;

    private DdsSecurityFiles() {
    }

    /**
     * Issues an identity for each granted node (loopback host names; the DDS plugins check the chain and the
     * subject, not host names) and writes the set.
     *
     * @return each node's security settings
     */
    public static Map<NodeId, ParticipantSettings.Security> write(Path dir, SiteAuthority authority, int domainId,
            String receiptsTopic, Collection<NodeGrant> grants, Duration validity) {
        Map<NodeId, Identity> identities = new LinkedHashMap<>();
        grants.forEach(g -> identities.put(g.node(), authority.issue(IdentityRequest.loopback(g.node().value()),
                validity)));
        return write(dir, authority, domainId, receiptsTopic, grants, identities, validity);
    }

    /** Writes the set into a site's PKI directory, for the identities it already issued to every granted node. */
    public static Map<NodeId, ParticipantSettings.Security> write(SiteDirectory site, int domainId,
            String receiptsTopic, Collection<NodeGrant> grants, Duration validity) {
        Map<NodeId, Identity> identities = new LinkedHashMap<>();
        grants.forEach(g -> identities.put(g.node(), site.identity(g.node().value())));
        return write(site.dir(), site.authority(), domainId, receiptsTopic, grants, identities, validity);
    }

    /** Writes the set for identities already issued by {@code authority}. */
    public static Map<NodeId, ParticipantSettings.Security> write(Path dir, SiteAuthority authority, int domainId,
            String receiptsTopic, Collection<NodeGrant> grants, Map<NodeId, Identity> identities,
            Duration validity) {
        try {
            Files.createDirectories(dir.resolve(GOVERNANCE).getParent());
            PemFiles.writeCertificate(dir.resolve(CA), authority.certificate());
            Files.writeString(dir.resolve(GOVERNANCE), authority.signSmime(DdsSecurityDocuments.governance(domainId)),
                    StandardCharsets.US_ASCII);
            Instant now = Instant.now();
            String permissions = DdsSecurityDocuments.permissions(domainId, receiptsTopic, grants,
                    g -> require(identities, g.node()).subject(), now.minus(Duration.ofMinutes(5)),
                    now.plus(validity));
            Files.writeString(dir.resolve(PERMISSIONS), authority.signSmime(permissions), StandardCharsets.UTF_8);
            Map<NodeId, ParticipantSettings.Security> settings = new LinkedHashMap<>();
            for (NodeGrant grant : grants) {
                Identity identity = require(identities, grant.node());
                Path nodeDir = Files.createDirectories(dir.resolve(grant.node().value()));
                PemFiles.writeCertificate(nodeDir.resolve(CERTIFICATE), identity.certificate());
                PemFiles.writePrivateKey(nodeDir.resolve(PRIVATE_KEY), identity.privateKey());
                settings.put(grant.node(), security(dir, grant.node()));
            }
            return settings;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Unable to write the DDS Security files into " + dir, ex);
        }
    }

    /** The settings naming {@code node}'s files in a directory {@link #write} filled. */
    public static ParticipantSettings.Security security(Path dir, NodeId node) {
        Path nodeDir = dir.resolve(node.value());
        return new ParticipantSettings.Security(nodeDir.resolve(CERTIFICATE), nodeDir.resolve(PRIVATE_KEY),
                dir.resolve(CA), dir.resolve(CA), dir.resolve(GOVERNANCE), dir.resolve(PERMISSIONS));
    }

    private static Identity require(Map<NodeId, Identity> identities, NodeId node) {
        Identity identity = identities.get(node);
        if (identity == null) {
            throw new IllegalArgumentException("No identity issued for node " + node);
        }
        return identity;
    }
}

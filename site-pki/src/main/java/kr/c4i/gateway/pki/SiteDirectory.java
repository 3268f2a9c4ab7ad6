package kr.c4i.gateway.pki;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * A site's PKI on disk, in the layout every service and tool reads:
 *
 * <pre>
 * DIR/authority/ca.crt  ca.key                 the site authority (keep ca.key offline in a deployment)
 * DIR/HOLDER/identity.crt  identity.key        a node's or gateway's certificate and key, PEM (DDS Security, WAN)
 * DIR/HOLDER/HOLDER.p12  trust.p12  HOLDER.password   the same as TLS stores ({@link TlsStores}: broker TLS)
 * </pre>
 */
public final class SiteDirectory {

    public static final String AUTHORITY = "authority";
    public static final String AUTHORITY_CERTIFICATE = "ca.crt";
    public static final String CERTIFICATE = "identity.crt";
    public static final String PRIVATE_KEY = "identity.key";

    private final Path dir;
    private final SiteAuthority authority;

    private SiteDirectory(Path dir, SiteAuthority authority) {
        this.dir = dir;
        this.authority = authority;
    }

    /**
     * One holder's files.
     *
     * @param certificate its certificate, PEM
     * @param privateKey its private key, PEM, owner-only
     * @param tls its TLS key and trust stores and their password file
     */
    public record HolderFiles(Path certificate, Path privateKey, TlsStores tls) {
    }

    /** Creates a new site authority in an empty or missing directory. */
    public static SiteDirectory create(Path dir, String site, Duration validity) {
        if (Files.exists(authorityCertificate(dir))) {
            throw new PkiException(dir + " already holds a site authority; open it to issue more identities");
        }
        SiteAuthority authority = SiteAuthority.create(site, validity);
        authority.write(authorityCertificate(dir), authorityKey(dir));
        return new SiteDirectory(dir, authority);
    }

    /** Opens a directory that {@link #create} made. */
    public static SiteDirectory open(Path dir) {
        if (!Files.isRegularFile(authorityCertificate(dir))) {
            throw new PkiException(dir + " holds no site authority (no " + authorityCertificate(dir) + ")");
        }
        return new SiteDirectory(dir, SiteAuthority.read(authorityCertificate(dir), authorityKey(dir)));
    }

    public Path dir() {
        return dir;
    }

    public SiteAuthority authority() {
        return authority;
    }

    /** The authority's certificate file, which every holder of this site and of peer sites trusts. */
    public Path authorityCertificate() {
        return authorityCertificate(dir);
    }

    /**
     * Issues an identity to a holder and writes its files, replacing any it had; its trust store also holds the
     * other authorities given (peer sites', for a WAN gateway).
     */
    public HolderFiles issue(IdentityRequest request, Duration validity, List<X509Certificate> otherAuthorities) {
        Identity identity = authority.issue(request, validity);
        Path home = home(request.name());
        PemFiles.writeCertificate(home.resolve(CERTIFICATE), identity.certificate());
        PemFiles.writePrivateKey(home.resolve(PRIVATE_KEY), identity.privateKey());
        TlsStores tls = TlsStores.write(identity, home, otherAuthorities);
        return new HolderFiles(home.resolve(CERTIFICATE), home.resolve(PRIVATE_KEY), tls);
    }

    /** Issues an identity that trusts this site's authority only. */
    public HolderFiles issue(IdentityRequest request, Duration validity) {
        return issue(request, validity, List.of());
    }

    /** Where a holder's files are, once issued. */
    public HolderFiles holder(String name) {
        Path home = home(name);
        if (!Files.isRegularFile(home.resolve(CERTIFICATE))) {
            throw new PkiException("no identity issued to '" + name + "' in " + dir);
        }
        return new HolderFiles(home.resolve(CERTIFICATE), home.resolve(PRIVATE_KEY), TlsStores.in(home, name));
    }

    /** The holders issued so far, by name. */
    public List<String> holders() {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> Files.isRegularFile(p.resolve(CERTIFICATE)))
                    .map(p -> p.getFileName().toString()).sorted().toList();
        }
        catch (IOException e) {
            throw new PkiException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Reads a holder's identity back from its PEM files. */
    public Identity identity(String holder) {
        HolderFiles files = holder(holder);
        return new Identity(PemFiles.readCertificate(files.certificate()), PemFiles.readPrivateKey(files.privateKey()),
                authority.certificate());
    }

    private Path home(String holder) {
        return dir.resolve(IdentityRequest.requireName(holder));
    }

    private static Path authorityCertificate(Path dir) {
        return dir.resolve(AUTHORITY).resolve(AUTHORITY_CERTIFICATE);
    }

    private static Path authorityKey(Path dir) {
        return dir.resolve(AUTHORITY).resolve("ca.key");
    }
}

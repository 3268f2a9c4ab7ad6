package kr.c4i.gateway.jms;

import java.net.InetAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;

import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.pki.TlsStores;

/**
 * Real certificates from a site's authority, written as the stores a broker or client reads, under a test's
 * temporary directory. Public for the link's tests.
 */
public final class TlsFixture {

    private static final Duration DAY = Duration.ofDays(1);

    private final SiteAuthority authority;
    private final Path root;

    public TlsFixture(String site, Path root) {
        this.authority = SiteAuthority.create(site, DAY);
        this.root = root.resolve("pki-" + site);
    }

    public X509Certificate authority() {
        return this.authority.certificate();
    }

    /** A holder on this host: its certificate names {@code localhost} and {@code 127.0.0.1}. */
    public BrokerTls loopback(String name, X509Certificate... otherAuthorities) {
        return issue(IdentityRequest.loopback(name), otherAuthorities);
    }

    /** A holder whose certificate names only another host, not this one. */
    public BrokerTls elsewhere(String name) {
        return issue(new IdentityRequest(name, List.of("other-host.example"),
                List.of(InetAddress.ofLiteral("192.0.2.7"))));
    }

    private BrokerTls issue(IdentityRequest request, X509Certificate... otherAuthorities) {
        TlsStores stores = TlsStores.write(this.authority.issue(request, DAY), this.root.resolve(request.name()),
                List.of(otherAuthorities));
        return BrokerTls.of(stores.keyStore(), stores.trustStore(), stores.passwordFile());
    }
}

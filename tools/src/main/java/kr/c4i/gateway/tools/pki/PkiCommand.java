package kr.c4i.gateway.tools.pki;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.dds.security.DdsSecurityDocuments;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.PemFiles;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.embedded.OptionValues;

/**
 * Creates a site's authority (once) and issues identities to its nodes and gateway, in the layout of
 * {@link SiteDirectory}.
 */
@Command(name = "pki", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Create a site's certificate authority and issue its nodes' and gateway's identities.",
        description = "Creates DIR/authority (the site's CA: EC P-256, self-signed) unless DIR already holds one, "
                + "then issues each --holder an identity signed by it: DIR/<holder>/identity.crt and identity.key "
                + "(PEM), <holder>.p12 and trust.p12 (PKCS #12, for broker TLS) and <holder>.password (owner-only). "
                + "Issuing a holder again replaces its identity. With --dds-domain, also writes the site's DDS "
                + "Security documents, signed by the authority: DIR/dds/governance.p7s and permissions.p7s, which "
                + "grant each node of --subscribe its own partitions, every topic to write and the topics of its "
                + "subscriptions to read; with --gateway, also the site's WAN gateway, granted to write and "
                + "receipt as each --remote node it stands in for on the site's domain and to read what they "
                + "subscribe to. Keep DIR/authority/ca.key offline in a deployment.")
public final class PkiCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", required = true, description = "The site's PKI directory.")
    Path dir;

    @Option(names = "--site", required = true, description = "The site's id; it names the authority and goes "
            + "into every certificate's subject (OU).")
    String site;

    @Option(names = "--holder", converter = HolderSpec.class, paramLabel = "NAME[=HOST,...]",
            description = "A node or gateway to issue an identity to, with the DNS names and IP addresses it is "
                    + "reached at (TLS clients check them); NAME alone means localhost and 127.0.0.1. Repeatable.")
    List<IdentityRequest> holders = List.of();

    @Option(names = "--peer-authority", paramLabel = "FILE",
            description = "Another site's authority certificate (PEM) that the trust stores of the holders issued "
                    + "in this run also trust: give it when issuing a WAN gateway whose jms link meets that site. "
                    + "Repeatable.")
    List<Path> peerAuthorities = List.of();

    @Option(names = "--dds-domain", description = "Write the DDS Security documents for this DDS domain id.")
    @Nullable Integer ddsDomain;

    @Option(names = "--subscribe", paramLabel = "NODE=PATTERNS", mapFallbackValue = RoutingTable.ALL,
            description = "A node's subscriptions as in gateway.routing.subscriptions.<node> (comma-separated "
                    + "patterns: *, category:<name>, a type id); with --dds-domain, the nodes granted. Repeatable.")
    Map<String, String> subscriptions = new TreeMap<>();

    @Option(names = "--gateway", paramLabel = "NAME",
            description = "With --dds-domain: the site's WAN gateway, by its node id on the site's domain "
                    + "(gateway.wan.node-id, gw-<site> unless set), granted to write and receipt as every --remote "
                    + "node besides itself.")
    @Nullable String gateway;

    @Option(names = "--remote", paramLabel = "NODE=PATTERNS", mapFallbackValue = RoutingTable.ALL,
            description = "With --gateway: a node at another site that the gateway relays for, with its "
                    + "subscriptions as in gateway.routing.subscriptions.<node>; the gateway may read only the "
                    + "topics these subscribe to. Repeatable.")
    Map<String, String> remotes = new TreeMap<>();

    @Option(names = "--validity-days", defaultValue = "825", converter = OptionValues.PositiveInt.class,
            description = "How long issued identities are valid.")
    int validityDays;

    @Option(names = "--authority-validity-days", defaultValue = "3650", converter = OptionValues.PositiveInt.class,
            description = "How long a new authority is valid.")
    int authorityValidityDays;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (ddsDomain == null && (gateway != null || !remotes.isEmpty())) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--gateway and --remote grant DDS "
                    + "permissions: they need --dds-domain");
        }
        @Nullable KmtfCatalogue catalogue = ddsDomain == null ? null : KmtfCatalogue.loadDefault();
        @Nullable DdsGrants grants = catalogue == null ? null : ddsGrants(ddsDomain, catalogue);
        SiteDirectory directory;
        if (Files.exists(dir.resolve("authority"))) {
            directory = SiteDirectory.open(dir);
            String existing = directory.authority().site();
            if (!existing.equals(site)) {
                spec.commandLine().getErr().println("pki: " + dir + " holds the authority of site '" + existing
                        + "', not '" + site + "'");
                return ExitCode.USAGE.code();
            }
            out.println("authority of site " + site + ": " + directory.authorityCertificate() + " (kept)");
        }
        else {
            directory = SiteDirectory.create(dir, site, Duration.ofDays(authorityValidityDays));
            out.println("authority of site " + site + ": " + directory.authorityCertificate() + " (created)");
        }
        List<X509Certificate> others = peerAuthorities.stream().map(PemFiles::readCertificate).toList();
        Duration validity = Duration.ofDays(validityDays);
        for (IdentityRequest holder : holders) {
            SiteDirectory.HolderFiles files = directory.issue(holder, validity, others);
            out.println("identity of " + holder.name() + ": " + files.certificate().getParent() + " (hosts "
                    + String.join(",", hosts(holder)) + ")");
        }
        if (ddsDomain != null && grants != null) {
            writeDdsSecurity(directory, ddsDomain, grants, validity, out);
        }
        return ExitCode.OK.code();
    }

    /**
     * The site's DDS grants: one per node of {@code --subscribe}, and the gateway's for its {@code --remote} nodes.
     *
     * @param nodes the site's nodes, each with its grant
     * @param all every grant, the gateway's last
     */
    private record DdsGrants(List<NodeId> nodes, List<NodeGrant> all) {
    }

    /** The DDS grants, checked with the domain before anything is written. */
    private DdsGrants ddsGrants(int domain, KmtfCatalogue catalogue) {
        if (subscriptions.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--dds-domain needs the nodes' --subscribe");
        }
        if (domain < 0 || domain > DdsSecurityDocuments.MAX_DOMAIN_ID) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--dds-domain must be 0.."
                    + DdsSecurityDocuments.MAX_DOMAIN_ID + " (Cyclone's access control refuses larger ids), was "
                    + domain);
        }
        if ((gateway == null) != remotes.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), gateway == null
                    ? "--remote names nodes a gateway relays for: give the --gateway"
                    : "--gateway " + gateway + " needs the nodes at other sites it relays for (--remote)");
        }
        Set<String> both = new TreeSet<>(remotes.keySet());
        both.retainAll(subscriptions.keySet());
        if (!both.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), both + " cannot be both nodes of this site "
                    + "(--subscribe) and at another site (--remote)");
        }
        if (gateway != null && (subscriptions.containsKey(gateway) || remotes.containsKey(gateway))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--gateway " + gateway + " is a node of its "
                    + "own (--subscribe or --remote): a gateway needs a node id of its own");
        }
        try {
            Map<NodeId, List<String>> table = new TreeMap<>();
            subscriptions.forEach((node, patterns) -> table.put(NodeId.of(node), List.of(patterns.split(","))));
            remotes.forEach((node, patterns) -> table.put(NodeId.of(node), List.of(patterns.split(","))));
            RoutingTable routing = RoutingTable.of(table, catalogue);
            List<NodeId> nodes = subscriptions.keySet().stream().map(NodeId::of).toList();
            List<NodeGrant> all = new ArrayList<>(NodeGrant.forNodes(nodes, routing, catalogue));
            if (gateway != null) {
                all.add(NodeGrant.forGateway(NodeId.of(gateway), remotes.keySet().stream().map(NodeId::of).toList(),
                        routing, catalogue));
            }
            return new DdsGrants(nodes, all);
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--subscribe, --remote, --gateway: "
                    + e.getMessage(), e);
        }
    }

    private void writeDdsSecurity(SiteDirectory directory, int domain, DdsGrants grants, Duration validity,
            PrintWriter out) {
        List<String> issued = directory.holders();
        for (NodeGrant grant : grants.all()) {
            if (!issued.contains(grant.node().value())) {
                directory.issue(IdentityRequest.loopback(grant.node().value()), validity);
                out.println("identity of " + grant.node() + ": " + directory.dir().resolve(grant.node().value())
                        + " (hosts localhost,127.0.0.1)");
            }
        }
        DdsSecurityFiles.write(directory, domain, DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, grants.all(),
                validity);
        out.println("DDS Security of domain " + domain + " for " + grants.nodes() + ": "
                + directory.dir().resolve(DdsSecurityFiles.GOVERNANCE).getParent());
        if (gateway != null) {
            out.println("DDS grant of gateway " + gateway + ": as itself and " + remotes.keySet());
        }
    }

    private static List<String> hosts(IdentityRequest holder) {
        return Stream.concat(holder.hostNames().stream(), holder.addresses().stream().map(InetAddress::getHostAddress))
                .toList();
    }
}

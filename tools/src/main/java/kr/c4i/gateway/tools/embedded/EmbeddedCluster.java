package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.TlsStores;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * The embedded default: nodes {@code a, b, ...} on this machine, each with its own PostgreSQL and
 * bridge (and, for JMS, its own persistent Artemis broker). Node {@code a} publishes; every other
 * node subscribes to every type. Everything lives under one work directory and is closed together.
 *
 * <p>Secured, the run makes a site PKI of its own in {@code <work dir>/pki}: each node's broker and its
 * connections use mutual TLS with the node's identity. Over DDS the nodes share one JVM, and Cyclone applies the
 * first participant's permissions to a domain in a process, so the nodes share one DDS identity (node a's) whose
 * permissions cover every node's partitions; deployed nodes, one per process, each have their own.
 */
final class EmbeddedCluster implements AutoCloseable {

    private final List<EmbeddedNode> nodes = new ArrayList<>();

    private EmbeddedCluster() {
    }

    static EmbeddedCluster start(TransportKind transport, int nodeCount, Path workDir, Path logFile, boolean secured)
            throws IOException {
        return start(transport, nodeCount, workDir, logFile, secured, UnaryOperator.identity());
    }

    /** @param databases what each node's database server is started with beyond the durable defaults */
    static EmbeddedCluster start(TransportKind transport, int nodeCount, Path workDir, Path logFile, boolean secured,
            UnaryOperator<EmbeddedPostgres.Builder> databases) throws IOException {
        if (nodeCount < 2 || nodeCount > 26) {
            throw new IllegalArgumentException("--nodes must be between 2 and 26, was " + nodeCount);
        }
        EmbeddedCluster cluster = new EmbeddedCluster();
        try {
            List<NodeId> ids = new ArrayList<>();
            Map<NodeId, Integer> brokerPorts = new LinkedHashMap<>();
            for (int i = 0; i < nodeCount; i++) {
                NodeId id = NodeId.of(String.valueOf((char) ('a' + i)));
                ids.add(id);
                brokerPorts.put(id, LoopbackPorts.freeTcp());
                // The run's folder is fresh; the command removes it, databases included, unless --keep-data.
                cluster.nodes.add(EmbeddedNode.startDatabase(id, workDir, LoopbackPorts.freeTcp(),
                        databases.apply(EmbeddedPostgres.builder().setCleanDataDirectory(false))));
            }
            // One secret per run: the brokers accept no anonymous connection, and nobody else knows it.
            String password = Secrets.random();
            // A DDS domain of this run's own, so two runs on one machine never meet.
            int domain = 1 + (int) (ProcessHandle.current().pid() % 200);
            @Nullable SiteDirectory pki = secured ? sitePki(workDir.resolve("pki"), ids, domain) : null;
            // Receivers first: the publisher's store-and-forward bridges then find them at the first attempt.
            for (EmbeddedNode node : cluster.nodes.reversed()) {
                NodeLaunch.Builder launch = NodeLaunch.builder(node.id().value(), transport)
                        .logFile(logFile).quietConsole()
                        .roles(node == cluster.nodes.getFirst(), node != cluster.nodes.getFirst());
                for (NodeId subscriber : ids.subList(1, ids.size())) {
                    launch.subscription(subscriber.value(), "*");
                }
                launch.jmsCredentials("gateway", password).embeddedBroker("127.0.0.1", brokerPorts.get(node.id()))
                        .brokerDataDirectory(workDir.resolve(node.id().value()).resolve("artemis"))
                        // Loopback has no multicast: unicast discovery to 127.0.0.1.
                        .ddsDomain(domain).ddsMulticast(false).ddsPeers(List.of("127.0.0.1"));
                if (pki == null) {
                    launch.jmsPlainTcp().ddsPlain();
                }
                else {
                    TlsStores tls = pki.holder(node.id().value()).tls();
                    SiteDirectory.HolderFiles shared = pki.holder(ids.getFirst().value());
                    launch.jmsTls(tls.keyStore(), tls.passwordFile(), tls.trustStore())
                            .ddsSecurity(pki.dir(), shared.certificate(), shared.privateKey());
                }
                for (NodeId peer : ids) {
                    if (!peer.equals(node.id())) {
                        launch.jmsPeer(peer.value(), "tcp://127.0.0.1:" + brokerPorts.get(peer));
                    }
                }
                node.startBridge(launch);
            }
            return cluster;
        }
        catch (IOException | RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    /** Each node's identity, and DDS Security whose one grant (node a's identity) covers every node. */
    private static SiteDirectory sitePki(Path dir, List<NodeId> ids, int domain) {
        SiteDirectory pki = SiteDirectory.create(dir, "embedded", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
        for (NodeId id : ids) {
            pki.issue(IdentityRequest.loopback(id.value()), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
        }
        Map<NodeId, List<String>> subscriptions = new LinkedHashMap<>();
        ids.subList(1, ids.size()).forEach(id -> subscriptions.put(id, List.of(RoutingTable.ALL)));
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        List<NodeGrant> grants = NodeGrant.forNodes(ids, RoutingTable.of(subscriptions, catalogue), catalogue);
        NodeGrant shared = new NodeGrant(ids.getFirst(), Set.copyOf(ids),
                grants.stream().flatMap(g -> g.publishTopics().stream()).collect(Collectors.toSet()),
                grants.stream().flatMap(g -> g.subscribeTopics().stream()).collect(Collectors.toSet()));
        DdsSecurityFiles.write(pki, domain, DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, List.of(shared),
                SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
        return pki;
    }

    EmbeddedNode publisher() {
        return nodes.getFirst();
    }

    List<EmbeddedNode> receivers() {
        return nodes.subList(1, nodes.size());
    }

    List<EmbeddedNode> nodes() {
        return List.copyOf(nodes);
    }

    @Override
    public void close() {
        // Stop every bridge before any database, so no bridge sees its database vanish.
        nodes.reversed().forEach(EmbeddedNode::stopBridge);
        for (EmbeddedNode node : nodes.reversed()) {
            try {
                node.close();
            }
            catch (IOException ex) {
                System.err.println("Unable to stop the database of node " + node.id() + ": " + ex.getMessage());
            }
        }
    }
}

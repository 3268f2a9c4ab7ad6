package kr.c4i.gateway.dds.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * A second gateway node in its own JVM, so samples cross the network stack (loopback) instead of Cyclone's
 * in-process path. Subscribes to every catalogue type, receipts what it gets, prints {@code READY}, then
 * {@code RECEIVED <distinct> <total>} whenever the counts change, and exits when its standard input closes.
 * Arguments: domain id, node id, and optionally the comma-separated types to subscribe to instead of all; with
 * them, each {@code RECEIVED} line ends with the BEST_EFFORT samples the transport counted as dropped here.
 * With the system property {@value #SECURITY_DIR} naming a directory {@link DdsSecurityFiles#write} filled, the
 * node joins with DDS Security as itself; with {@value #LEASE} (ISO-8601), it announces that lease.
 */
public final class PeerMain {

    /** System property: the DDS Security directory to join with. */
    static final String SECURITY_DIR = "kr.c4i.gateway.test.dds-security";
    /** System property: the lease the node announces, Cyclone's own when unset. */
    static final String LEASE = "kr.c4i.gateway.test.dds-lease";

    private PeerMain() {
    }

    public static void main(String[] args) throws Exception {
        int domainId = Integer.parseInt(args[0]);
        NodeId node = NodeId.of(args[1]);
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        boolean someTypes = args.length > 2;
        Set<String> types = someTypes ? Set.of(args[2].split(",")) : catalogue.ids();
        Set<String> distinct = ConcurrentHashMap.newKeySet();
        AtomicLong total = new AtomicLong();
        DdsTransportSettings settings = TestNetwork.transport(domainId).build();
        String lease = System.getProperty(LEASE);
        if (lease != null) {
            settings = settings.toBuilder().participant(settings.participant().toBuilder()
                    .lease(Duration.parse(lease)).build()).build();
        }
        String security = System.getProperty(SECURITY_DIR);
        if (security != null) {
            settings = settings.toBuilder().participant(settings.participant().toBuilder()
                    .security(DdsSecurityFiles.security(Path.of(security), node)).build()).build();
        }
        try (DdsTransport transport = new DdsTransport(node, catalogue, types, settings)) {
            transport.open();
            transport.subscribe(batch -> {
                batch.forEach(e -> distinct.add(e.messageId()));
                total.addAndGet(batch.size());
            });
            System.out.println("READY " + transport.openTime().toMillis());
            System.out.flush();
            Thread reporter = Thread.ofPlatform().daemon().start(() -> {
                String last = "";
                while (true) {
                    String now = "RECEIVED " + distinct.size() + " " + total.get();
                    if (someTypes) {
                        DdsTransportStats stats = transport.stats();
                        now += " " + (stats.droppedLost() + stats.droppedRejected());
                    }
                    if (!now.equals(last)) {
                        System.out.println(now);
                        System.out.flush();
                        last = now;
                    }
                    try {
                        // The child's pacing, not a wait for readiness: a report line at most every 20 ms.
                        Thread.sleep(20);
                    }
                    catch (InterruptedException ex) {
                        return;
                    }
                }
            });
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (stdin.readLine() != null) {
                // Lines are ignored; end of input ends the peer.
            }
            reporter.interrupt();
        }
        System.out.println("CLOSED");
    }
}

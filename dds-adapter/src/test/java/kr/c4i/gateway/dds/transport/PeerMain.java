package kr.c4i.gateway.dds.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * A second gateway node in its own JVM, so samples cross the network stack (loopback) instead of Cyclone's
 * in-process path. Subscribes to every catalogue type, receipts what it gets, prints {@code READY}, then
 * {@code RECEIVED <distinct> <total>} whenever the counts change, and exits when its standard input closes.
 * Arguments: domain id, node id.
 */
public final class PeerMain {

    private PeerMain() {
    }

    public static void main(String[] args) throws Exception {
        int domainId = Integer.parseInt(args[0]);
        NodeId node = NodeId.of(args[1]);
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        Set<String> distinct = ConcurrentHashMap.newKeySet();
        AtomicLong total = new AtomicLong();
        try (DdsTransport transport = new DdsTransport(node, catalogue, catalogue.ids(),
                DdsTransportSettings.defaults().withParticipant(TestNetwork.loopback(domainId)))) {
            transport.open();
            transport.subscribe(batch -> {
                batch.forEach(e -> distinct.add(e.messageId()));
                total.addAndGet(batch.size());
            });
            System.out.println("READY " + transport.openTime().toMillis());
            System.out.flush();
            Thread reporter = Thread.ofPlatform().daemon().start(() -> {
                long last = -1;
                while (true) {
                    long now = total.get();
                    if (now != last) {
                        System.out.println("RECEIVED " + distinct.size() + " " + now);
                        System.out.flush();
                        last = now;
                    }
                    try {
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

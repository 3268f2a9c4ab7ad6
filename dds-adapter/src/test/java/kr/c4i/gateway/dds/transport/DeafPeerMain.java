package kr.c4i.gateway.dds.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.CycloneDomains;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;

/**
 * A secured node in its own JVM whose first handshake with the other side cannot complete, as on a link that loses
 * everything during discovery: its domain is deaf ({@link CycloneDomains#deaf}, a call of Cyclone's for tests)
 * before its transport's participant exists, so that participant announces itself but hears nothing, and the other
 * side gives the handshake up after Cyclone's 100 s. The line {@code hear} on its standard input makes it hear again:
 * the cause is gone, but Cyclone never redoes the handshake. Subscribes to the given types and receipts, prints
 * {@code READY}, then {@code RECEIVED <distinct>} whenever that changes; exits when its standard input closes.
 * Arguments: domain id, node id, the DDS Security directory, the comma-separated types.
 */
public final class DeafPeerMain {

    private DeafPeerMain() {
    }

    public static void main(String[] args) throws Throwable {
        int domainId = Integer.parseInt(args[0]);
        NodeId node = NodeId.of(args[1]);
        DdsTransportSettings settings = TestNetwork.transport(domainId).build();
        settings = settings.toBuilder().participant(settings.participant().toBuilder()
                .security(DdsSecurityFiles.security(Path.of(args[2]), node)).build()).build();
        Set<String> distinct = ConcurrentHashMap.newKeySet();
        // A participant first creates the domain, so that it is deaf before the transport's participant announces
        // itself, however fast the other side answers; it leaves once the transport's participant is there.
        DomainParticipant primer = DomainParticipant.create(settings.participant());
        CycloneDomains.deaf(domainId, true);
        try (DdsTransport transport = new DdsTransport(node, DdsTransportTest.CATALOGUE, Set.of(args[3].split(",")),
                settings)) {
            transport.open();
            primer.close();
            transport.subscribe(batch -> {
                batch.forEach(e -> distinct.add(e.messageId()));
                System.out.println("RECEIVED " + distinct.size());
                System.out.flush();
            });
            System.out.println("READY");
            System.out.flush();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
                if (line.equals("hear")) {
                    CycloneDomains.deaf(domainId, false);
                    System.out.println("HEARING");
                    System.out.flush();
                }
            }
        }
    }
}

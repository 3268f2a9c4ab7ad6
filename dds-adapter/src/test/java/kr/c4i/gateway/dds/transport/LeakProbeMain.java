package kr.c4i.gateway.dds.transport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Runs in its own JVM with a fixed, pre-touched heap, so its resident set size moves only with native memory:
 * two nodes exchange {@code count} messages of 2 KiB with receipts, and the RSS is printed every 20,000 as
 * {@code RSS <messages> <kB>}. Arguments: domain id, count.
 */
public final class LeakProbeMain {

    private LeakProbeMain() {
    }

    public static void main(String[] args) throws Exception {
        int domainId = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        MessageType type = catalogue.types().stream().filter(t -> t.maxSize() >= 2048)
                .filter(t -> t.reliability() == kr.c4i.gateway.kmtf.catalogue.Reliability.RELIABLE).findFirst()
                .orElseThrow();
        DdsTransportSettings settings = TestNetwork.transport(domainId).build();
        AtomicLong received = new AtomicLong();
        AtomicLong receipted = new AtomicLong();
        try (DdsTransport alpha = new DdsTransport(NodeId.of("alpha"), catalogue, Set.of(), settings);
                DdsTransport bravo = new DdsTransport(NodeId.of("bravo"), catalogue, Set.of(type.id()), settings)) {
            alpha.onReceipts((receiver, ids) -> receipted.addAndGet(ids.size()));
            alpha.open();
            bravo.open();
            bravo.subscribe(batch -> received.addAndGet(batch.size()));
            byte[] body = new byte[2048];
            List<Outbound> batch = new ArrayList<>(100);
            for (int i = 0; i < count; i++) {
                batch.add(new Outbound(new Envelope("leak-" + i, NodeId.of("alpha"), type.id(),
                        type.defaultPrecedence(), "UNCLASSIFIED", Instant.now(), body), type, List.of()));
                if (batch.size() == 100) {
                    alpha.send(batch);
                    batch.clear();
                }
                if ((i + 1) % 20_000 == 0) {
                    long target = i + 1;
                    // The child's pacing, not a test's wait: it measures at quiescence and reports whatever it has
                    // after a minute; the parent test judges the numbers.
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (receipted.get() < target && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                    System.gc();
                    System.out.println("RSS " + target + " " + rssKb() + " received " + received.get()
                            + " receipted " + receipted.get());
                    System.out.flush();
                }
            }
        }
        System.out.println("DONE");
    }

    static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/self/status");
    }
}

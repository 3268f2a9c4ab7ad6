package kr.c4i.gateway.dds.link;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportException;

/**
 * A peer gateway's dds link in its own JVM, so frames cross UDP on loopback instead of Cyclone's in-process path.
 * Echoes every frame back to its sender, prints {@code READY} once open, and closes its link when its standard input
 * closes. Arguments: WAN domain id, this site, the peer site, and optionally the link's DDS lease (ISO-8601, e.g.
 * {@code PT2S}).
 */
public final class LinkPeerMain {

    private LinkPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        SiteId site = SiteId.of(args[1]);
        SiteId peer = SiteId.of(args[2]);
        DdsLinkSettings.Builder builder = DdsLinkSettings.builder(Integer.parseInt(args[0]), site)
                .peer(peer, "127.0.0.1").networkInterface("127.0.0.1");
        if (args.length > 3) {
            builder.lease(Duration.parse(args[3]));
        }
        DdsLinkSettings settings = builder.build();
        LinkedBlockingQueue<byte[]> echo = new LinkedBlockingQueue<>();
        try (DdsWanLink link = new DdsWanLink(settings)) {
            link.open(new FrameHandler() {
                @Override
                public void received(SiteId from, byte[] frame) {
                    echo.add(frame);
                }

                @Override
                public void stateChanged(SiteId from, LinkState state) {
                    System.out.println("STATE " + from + " " + state.label());
                    System.out.flush();
                }
            });
            // Echoed from a thread of its own: send is the scheduler's call, not the handler's.
            Thread echoer = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        byte[] frame = echo.take();
                        while (true) {
                            try {
                                link.send(peer, frame);
                                break;
                            }
                            catch (TransportException ex) {
                                Thread.sleep(10);
                            }
                        }
                    }
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            System.out.println("READY");
            System.out.flush();
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (stdin.readLine() != null) {
                // End of input ends the peer.
            }
            echoer.interrupt();
        }
        System.out.println("CLOSED");
    }
}

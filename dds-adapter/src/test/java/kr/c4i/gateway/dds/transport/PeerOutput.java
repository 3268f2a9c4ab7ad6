package kr.c4i.gateway.dds.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/** Follows a {@link PeerMain} process's standard output on a daemon thread: its READY line and its latest line. */
final class PeerOutput {

    private final AtomicReference<String> ready = new AtomicReference<>("");
    private final AtomicReference<String> last = new AtomicReference<>("");

    private PeerOutput() {
    }

    static PeerOutput follow(Process peer) {
        PeerOutput output = new PeerOutput();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("READY")) {
                        output.ready.set(line);
                    }
                    output.last.set(line);
                }
            }
            catch (IOException ex) {
                output.last.set("IO " + ex);
            }
        });
        return output;
    }

    /** The peer's READY line, empty until it has subscribed. */
    String readyLine() {
        return ready.get();
    }

    String lastLine() {
        return last.get();
    }
}

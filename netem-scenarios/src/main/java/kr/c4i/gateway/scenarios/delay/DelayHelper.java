package kr.c4i.gateway.scenarios.delay;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The WAN link's delay as a process of its own, started by the harness with {@code ip netns exec} in the WAN
 * switch's namespace (NFQUEUE queues are per namespace): binds the queue, prints {@value #READY}, holds every
 * packet for the delay, and exits when its standard input ends, so it dies with the harness that started it.
 */
@Command(name = "delay-helper", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Hold every packet of an NFQUEUE queue for a fixed delay, then accept it; runs until standard "
                + "input ends. Needs root and libnetfilter_queue.so.1.")
public final class DelayHelper implements Callable<Integer> {

    /** The line printed once the queue is bound: from then on the queue's packets are delayed, not dropped. */
    public static final String READY = "READY";

    @Spec
    CommandSpec spec;

    @Option(names = "--queue", defaultValue = "0", description = "NFQUEUE queue number.")
    int queue;

    @Option(names = "--delay-ms", required = true, description = "How long each packet is held, in ms.")
    long delayMillis;

    @Option(names = "--max-packets", defaultValue = "1024",
            description = "Packets the kernel queue holds; more are dropped (counted by the kernel).")
    int maxPackets;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (PacketDelay delay = PacketDelay.open(queue, Duration.ofMillis(delayMillis), maxPackets)) {
            out.println(READY + " queue " + queue + ", delay " + delayMillis + " ms, at most " + maxPackets
                    + " packets");
            out.flush();
            delay.run(0);
            out.println("delay helper: " + delay.summary());
            out.flush();
        }
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DelayHelper()).execute(args));
    }
}

package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.ImpairmentBackend;
import kr.c4i.gateway.scenarios.net.LinkShape;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.net.Shell;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.tools.embedded.OptionValues.Percent;
import kr.c4i.gateway.tools.embedded.OptionValues.PositiveInt;
import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios network up}: builds the network and leaves it. */
@Command(name = "up", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Build the emulated network and leave it in place (remove it with 'network down').")
final class NetworkUpCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Mixin
    TopologyOptions where;

    @Mixin
    HostTuningOptions hostTuning;

    @Option(names = "--rate", description = "Impair every host's link to this rate, e.g. 256kbit.")
    @Nullable String rate;

    @Option(names = "--loss", defaultValue = "0", converter = Percent.class,
            description = "Random loss (percent) of every frame a host sends.")
    double lossPercent;

    @Option(names = "--queue-packets", defaultValue = "50", converter = PositiveInt.class,
            description = "Full-size frames each shaper queues.")
    int queuePackets;

    @Option(names = "--backend", description = "NETEM or TBF_NFTABLES (default: netem if the kernel has it).")
    @Nullable ImpairmentBackend backend;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        EnvironmentUnsupportedException.requireSupported();
        Topology topology = where.topology();
        Shell shell = output.shell(out);
        EmulatedNetwork network = EmulatedNetwork.create(topology, shell, backend, hostTuning.tuning(),
                line -> out.println(line));
        try {
            if (rate != null || lossPercent > 0) {
                network.shape(topology.hostIndexes(), new LinkShape(rate == null ? Rate.GBIT_1 : Rate.parse(rate),
                        lossPercent / 100, queuePackets));
            }
            network.detach();
        }
        finally {
            network.close();
        }
        out.println("Emulated network up: " + topology.hosts() + " hosts " + topology.subnet() + ".1-" + topology.hosts()
                + " in namespaces " + topology.hostNamespace(1) + "..; switch " + topology.switchNamespace());
        out.println("Backend: " + network.backend().description() + "; TCP congestion control "
                + network.congestionControl() + "; ARP retry " + network.arpRetryMillis() + " ms");
        out.println("Enter a host:  ip netns exec " + topology.hostNamespace(1) + " bash");
        out.println("Remove it:     scenarios network down --prefix " + topology.prefix());
        return ExitCode.OK.code();
    }
}

package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.scenarios.net.ImpairmentBackend;
import kr.c4i.gateway.scenarios.net.LinkShape;
import kr.c4i.gateway.scenarios.net.NetworkPlans;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.net.ShellCommand;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.tools.embedded.OptionValues.Percent;
import kr.c4i.gateway.tools.embedded.OptionValues.PositiveInt;
import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios network plan}: prints the commands that build, impair, cut and remove the network. */
@Command(name = "plan", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Print the commands that build, impair, cut and remove the network (runs nothing, no root needed).")
final class NetworkPlanCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Mixin
    TopologyOptions where;

    @Mixin
    HostTuningOptions hostTuning;

    @Option(names = "--rate", defaultValue = "256kbit", description = "Rate of the impairment shown.")
    String rate;

    @Option(names = "--loss", defaultValue = "30", converter = Percent.class,
            description = "Loss (percent) of the impairment shown.")
    double lossPercent;

    @Option(names = "--queue-packets", defaultValue = "50", converter = PositiveInt.class,
            description = "Full-size frames each shaper queues.")
    int queuePackets;

    @Option(names = "--backend", defaultValue = "TBF_NFTABLES", description = "NETEM or TBF_NFTABLES.")
    ImpairmentBackend backend;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Topology t = where.topology();
        LinkShape shape = new LinkShape(Rate.parse(rate), lossPercent / 100, queuePackets);
        section(out, "create", NetworkPlans.create(t, hostTuning.tuning()));
        section(out, "impair hosts 1 and 2 (" + shape.rate().label() + ", " + shape.lossPercent() + " loss)",
                NetworkPlans.shape(t, backend, List.of(1, 2), shape));
        section(out, "emergency stop of host 2 (then kill -9 every pid of 'ip netns pids " + t.hostNamespace(2) + "')",
                List.of(NetworkPlans.cut(t, 2)));
        section(out, "after the kill", NetworkPlans.forget(t, 2));
        section(out, "recovery of host 2 (and restart its node)", List.of(NetworkPlans.uncut(t, 2)));
        section(out, "counters", List.of(NetworkPlans.switchCounters(t), NetworkPlans.lossCounters(t)));
        section(out, "remove (after killing every pid in the namespaces)", NetworkPlans.destroy(t));
        return ExitCode.OK.code();
    }

    private static void section(PrintWriter out, String title, List<ShellCommand> commands) {
        out.println("# " + title);
        commands.forEach(c -> out.println(c.display()));
        out.println();
    }
}

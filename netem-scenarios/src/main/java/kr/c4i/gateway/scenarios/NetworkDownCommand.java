package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.Shell;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios network down}: removes the namespaces of a prefix and what runs in them. */
@Command(name = "down", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Remove the emulated network: kill what runs in its namespaces, delete them.")
final class NetworkDownCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Mixin
    TopologyOptions where;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        EnvironmentUnsupportedException.requireSupported();
        Shell shell = output.shell(out);
        List<String> removed = new java.util.ArrayList<>(EmulatedNetwork.removeExisting(where.topology(), shell));
        // The wan experiment's sites and WAN switch (its delay helper with it), when the prefix leaves room for them.
        try {
            WanTopology wan = WanTopology.of(where.topology());
            for (Topology part : List.of(wan.site1(), wan.site2(), wan.wan())) {
                removed.addAll(EmulatedNetwork.removeExisting(part, shell));
            }
        }
        catch (IllegalArgumentException noWanNetwork) {
            // a prefix or subnet the wan experiment cannot use: it never built one
        }
        out.println(removed.isEmpty() ? "Nothing to remove: no namespace starts with " + where.prefix
                : "Removed " + String.join(", ", removed));
        return ExitCode.OK.code();
    }
}

package kr.c4i.gateway.scenarios;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.tools.ExitCode;

/** {@code scenarios network}: the emulated network by hand. */
@Command(name = "network", mixinStandardHelpOptions = true,
        header = "Build, remove or show the emulated network by hand.",
        description = { "For looking around: 'network up' leaves the namespaces in place (enter a host with "
                + "'ip netns exec c4g-h1 bash'), 'network down' removes them and everything running in them, "
                + "'network plan' prints the commands without running them.", "" },
        subcommands = { NetworkUpCommand.class, NetworkDownCommand.class, NetworkPlanCommand.class })
final class NetworkCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        spec.commandLine().usage(out);
        return ExitCode.OK.code();
    }
}

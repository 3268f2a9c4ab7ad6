package kr.c4i.gateway.bridge.embedded;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The embedded default's command line: {@code demo} shows the gateway at work on one machine,
 * {@code bench} measures it. Only {@link #main} exits; commands return exit codes.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true, version = "c4i-gateway 0.1.0",
        header = "C4I messaging gateway on embedded defaults.",
        description = "Starts gateway nodes on this machine, each with its own embedded PostgreSQL and bridge, "
                + "and moves synthetic KMTF messages between them.",
        subcommands = { DemoCommand.class, BenchCommand.class, NodeCommand.class, CommandLine.HelpCommand.class },
        footerHeading = "%nExit codes:%n",
        footer = { "  0   every message delivered exactly once, every bad row quarantined",
                "  1   software error", "  2   usage error", "  3   target missed (lost, duplicated or late messages)" })
public final class GatewayCli implements Runnable {

    static final int TARGET_MISSED = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // Until each node's Spring context configures logging, libraries would log to the console over the progress bar.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.WARN);
        System.exit(new CommandLine(new GatewayCli()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().getOut().println("Try 'gateway demo' to see two nodes exchange KMTF messages.");
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * One node as its own process: an embedded PostgreSQL that keeps its data across restarts (also
 * after a kill -9) and the bridge. This is what the scenario harness starts inside each emulated
 * host; everything after {@code --} is handed to the bridge as Spring properties.
 */
@Command(name = "node", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run one node (embedded PostgreSQL and bridge) until stopped.",
        description = { "Starts the node's PostgreSQL (data kept under <work-dir>/<id>/postgres, its postgres user's "
                + "password in <work-dir>/<id>/postgres.password) and its bridge, prints "
                + "'READY node=<id> http=<port> jdbc=<url>' when both are up and runs until SIGTERM or SIGINT.",
                "The management endpoints (--http-port, on 127.0.0.1) take user 'user' and a password made for this "
                        + "run, kept in <work-dir>/<id>/management-password, unless spring.security.user.password "
                        + "is given.",
                "Bridge properties follow '--', e.g. -- --gateway.jms.peers.b.url=tcp://10.0.0.2:61616. With "
                        + "--transport dds and no gateway.dds.security.* property, DDS runs without DDS Security "
                        + "(gateway.dds.security.plain=true)." })
final class NodeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--id", required = true, converter = OptionValues.NodeName.class, description = "Node id.")
    String id;

    @Option(names = { "-t", "--transport" }, defaultValue = "jms", description = "jms or dds.")
    TransportKind transport;

    @Option(names = "--work-dir", required = true, description = "Where the database, broker journal and log live.")
    Path workDir;

    @Option(names = "--http-port", defaultValue = "8081", converter = OptionValues.ListenPort.class,
            description = "Port of the management endpoints (actuator), on 127.0.0.1 unless "
                    + "management.server.address is given.")
    int httpPort;

    @Mixin
    DatabaseOptions databaseOptions;

    List<String> bridgeArguments = new ArrayList<>();

    @Parameters(paramLabel = "--key=value", description = "Bridge properties, e.g. --gateway.routing.subscriptions.b=*")
    void bridgeArguments(List<String> arguments) {
        try {
            EmbeddedProperties.parse(arguments);
        }
        catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
        bridgeArguments = arguments;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        NodeId node = NodeId.of(id);
        Path home = workDir.toAbsolutePath();
        EmbeddedNode running = EmbeddedNode.startDatabase(node, home, httpPort, databaseOptions.keepingData());
        UntilStopped stopped = UntilStopped.closing("node " + node, running);
        Path nodeHome = home.resolve(node.value());
        running.startBridge(NodeLaunch.builder(node.value(), transport)
                .logFile(nodeHome.resolve("bridge.log")).brokerDataDirectory(nodeHome.resolve("artemis"))
                .properties(EmbeddedProperties.parse(bridgeArguments)));
        out.printf("Management: port %d, user '%s', password %s%n", httpPort, running.managementUser(),
                running.managementPasswordFile() == null ? "as given" : "in " + running.managementPasswordFile());
        out.printf("READY node=%s http=%d jdbc=%s%n", node, httpPort, running.jdbcUrl());
        out.flush();
        stopped.await();
        return 0;
    }
}

package kr.c4i.gateway.tools.embedded;

import java.io.PrintWriter;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import kr.c4i.gateway.bridge.metrics.BridgeDashboardConfiguration;
import kr.c4i.gateway.bridge.transport.DdsTransportConfiguration;
import kr.c4i.gateway.bridge.transport.JmsTransportConfiguration;
import kr.c4i.gateway.tools.node.GatewayLaunch;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.wan.WanGatewayApplication;

/**
 * One site's WAN gateway as its own process: an embedded PostgreSQL for its store that keeps its data across
 * restarts (also after a kill -9) and the wan-gateway service. Everything after {@code --} is handed to the gateway
 * as Spring properties.
 */
@Command(name = "wan", mixinStandardHelpOptions = true, showDefaultValues = true,
        header = "Run one site's WAN gateway (embedded PostgreSQL and wan-gateway) until stopped.",
        description = { "Starts the gateway's PostgreSQL (data kept under <work-dir>/<site>-gw/postgres, its postgres "
                + "user's password in <work-dir>/<site>-gw/postgres.password) and the gateway, prints "
                + "'READY wan=<site> http=<port> jdbc=<url>' when both are up and runs until SIGTERM or SIGINT.",
                "The management endpoints (--http-port, on 127.0.0.1) take user 'user' and a password made for this "
                        + "run, kept in <work-dir>/<site>-gw/management-password, unless spring.security.user.password "
                        + "is given. The brokers' journals default to <work-dir>/<site>-gw/artemis-lan and artemis-wan.",
                "Gateway properties follow '--', e.g. -- --gateway.routing.sites.s1=a --gateway.wan.link=dds. "
                        + "Without gateway.wan.security.* properties the WAN frames go in clear, and a DDS LAN side "
                        + "without gateway.wan.lan.dds.security.* runs without DDS Security (each set to "
                        + "plain=true)." })
final class WanCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--site", required = true, converter = OptionValues.SiteName.class,
            description = "This gateway's site (gateway.wan.site).")
    String site;

    @Option(names = "--work-dir", required = true, description = "Where the database, broker journals and log live.")
    Path workDir;

    @Option(names = "--http-port", defaultValue = "8091", converter = OptionValues.ListenPort.class,
            description = "Port of the management endpoints (actuator), on 127.0.0.1 unless "
                    + "management.server.address is given.")
    int httpPort;

    @Mixin
    DatabaseOptions databaseOptions;

    List<String> gatewayArguments = new ArrayList<>();

    @Parameters(paramLabel = "--key=value", description = "Gateway properties, e.g. --gateway.routing.sites.s2=c")
    void gatewayArguments(List<String> arguments) {
        try {
            EmbeddedProperties.parse(arguments);
        }
        catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), ex.getMessage().replace("Bridge property", "Gateway property"));
        }
        gatewayArguments = arguments;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path home = workDir.toAbsolutePath().resolve(site + "-gw");
        EmbeddedDatabase database = EmbeddedDatabase.startIn(home, databaseOptions.keepingData());
        AtomicReference<@Nullable ConfigurableApplicationContext> context = new AtomicReference<>();
        UntilStopped stopped = UntilStopped.closing("the gateway of site " + site, () -> {
            ConfigurableApplicationContext running = context.getAndSet(null);
            if (running != null) {
                running.close();
            }
            database.close();
        });
        GatewayLaunch.Builder launch = GatewayLaunch.builder(site).logFile(home.resolve("gateway.log"))
                .property("gateway.wan.lan.jms.embedded.data-directory", home.resolve("artemis-lan").toString())
                .property("gateway.wan.jms.embedded.data-directory", home.resolve("artemis-wan").toString())
                .properties(EmbeddedProperties.parse(gatewayArguments))
                .datasource(database.jdbcUrl(), EmbeddedDatabase.USER, database.password()).managementPort(httpPort);
        Path passwordFile = null;
        if (launch.build().managementPassword() == null) {
            String password = Secrets.random();
            passwordFile = EmbeddedNode.writeOwnerOnly(home.resolve(Launch.MANAGEMENT_PASSWORD_FILE), password);
            launch.managementPassword(password);
        }
        Map<String, String> properties = launch.build().properties();
        context.set(new SpringApplicationBuilder(WanGatewayApplication.class).run(arguments(properties)));
        out.printf("Management: port %d, user '%s', password %s%n", httpPort,
                properties.getOrDefault("spring.security.user.name", Launch.DEFAULT_MANAGEMENT_USER),
                passwordFile == null ? "as given" : "in " + passwordFile);
        out.printf("READY wan=%s http=%d jdbc=%s%n", site, httpPort, database.jdbcUrl());
        out.flush();
        stopped.await();
        return 0;
    }

    /**
     * The properties as command-line arguments (they win over application.yaml like an operator's would), and what
     * keeps the gateway in this JVM as it is in its own jar: db-bridge shares the classpath, so its application.yaml
     * and its auto-configurations (a node's transport, the node's dashboard charts) must not apply.
     */
    static String[] arguments(Map<String, String> properties) {
        List<String> arguments = new ArrayList<>();
        arguments.add("--spring.config.location=" + configLocation(WanGatewayApplication.class));
        arguments.add("--spring.autoconfigure.exclude=" + String.join(",", JmsTransportConfiguration.class.getName(),
                DdsTransportConfiguration.class.getName(), BridgeDashboardConfiguration.class.getName()));
        properties.forEach((key, value) -> arguments.add("--" + key + "=" + value));
        return arguments.toArray(String[]::new);
    }

    /** The {@code application.yaml} in the same classpath root (jar or directory) as {@code application}. */
    static String configLocation(Class<?> application) {
        String classFile = application.getName().replace('.', '/') + ".class";
        URL url = Objects.requireNonNull(application.getClassLoader().getResource(classFile), classFile);
        String text = url.toString();
        return text.substring(0, text.length() - classFile.length()) + "application.yaml";
    }
}

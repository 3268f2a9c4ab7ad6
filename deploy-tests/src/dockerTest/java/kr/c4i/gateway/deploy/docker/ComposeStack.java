package kr.c4i.gateway.deploy.docker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * docker-compose.yml brought up as a user does ({@code docker compose up -d --wait}), under a project name of its own,
 * with every variable of {@code .env.example} given in the environment (so a developer's own {@code .env} changes
 * nothing here), and removed with its volumes on close. Each command is bounded in time; a failed one throws with
 * its output.
 */
final class ComposeStack implements AutoCloseable {

    static final String PROJECT = "c4i-gateway-it";

    private final Path root;

    private final Map<String, String> environment = new LinkedHashMap<>();

    /**
     * @param transport the nodes' transport (jms, dds)
     * @param link the WAN link between the gateways (jms, dds)
     * @param pair whether s2 reaches s1's standby gateway too (the pair profile, dds link)
     */
    ComposeStack(Path root, String transport, String link, boolean pair) {
        this.root = root;
        String secret = UUID.randomUUID().toString();
        environment.put("COMPOSE_PROJECT_NAME", PROJECT);
        environment.put("POSTGRES_USER", "gateway");
        environment.put("POSTGRES_PASSWORD", "pg-" + secret);
        environment.put("BROKER_USER", "gateway");
        environment.put("BROKER_PASSWORD", "broker-" + secret);
        environment.put("MANAGEMENT_PASSWORD", "management-" + secret);
        environment.put("WAN_BROKER_USER", "wan");
        environment.put("WAN_BROKER_PASSWORD", "wan-" + secret);
        environment.put("GRAFANA_ADMIN_USER", "admin");
        environment.put("GRAFANA_ADMIN_PASSWORD", "grafana-" + secret);
        environment.put("GATEWAY_SECURITY", "secured");
        environment.put("GATEWAY_TRANSPORT", transport);
        environment.put("GATEWAY_WAN_LINK", link);
        environment.put("NODE_JAVA_OPTIONS", "-Xmx384m");
        environment.put("WAN_GATEWAY_JAVA_OPTIONS", "-Xmx384m");
        environment.put("WAN_BUDGET_BITS_PER_SECOND", "256000");
        environment.put("S1_GATEWAY_WAN_ADDRESSES", pair ? "172.31.78.11,172.31.78.13" : "172.31.78.11");
        environment.put("NODE_IMAGE", "c4i-gateway/db-bridge:local");
        environment.put("WAN_GATEWAY_IMAGE", "c4i-gateway/wan-gateway:local");
        environment.put("TOOLS_IMAGE", "c4i-gateway/gateway-tools:local");
        environment.put("POSTGRES_IMAGE", "c4i-gateway/postgres:15");
        environment.put("PROMETHEUS_IMAGE", "c4i-gateway/prometheus:2");
        environment.put("GRAFANA_IMAGE", "grafana/grafana:12.1.1");
    }

    /** The variables compose and the scenario script run with. */
    Map<String, String> environment() {
        return Map.copyOf(environment);
    }

    String get(String variable) {
        return environment.get(variable);
    }

    /**
     * Starts every service and waits until each is healthy (the one-shot pki service: completed). A stack that does
     * not come up throws with what each service that is not healthy said: its health checks' last answers and the end
     * of its log, which compose's own output leaves out. A stack that a killed run left under the same project name is
     * removed first: its databases' volumes would keep that run's passwords, and the new nodes could not log in.
     */
    void up() {
        down();
        try {
            // The images' health check gives a service 600 s to start; services starting together on two cores under
            // load take minutes (four took 3m53s under a CI at load 21; eleven, 11 minutes with every container held to
            // 0.4 CPU).
            compose(Duration.ofMinutes(11), "up", "-d", "--wait", "--wait-timeout", "600");
        }
        catch (IllegalStateException ex) {
            throw new IllegalStateException(ex.getMessage() + "\n" + unhealthyServices(), ex);
        }
    }

    /** Each container of the stack that is not running healthy: its restarts, its state, its log's end. */
    private String unhealthyServices() {
        StringBuilder report = new StringBuilder();
        try {
            String states = compose(Duration.ofSeconds(30), "ps", "-a", "--format",
                    "{{.Service}} {{.Name}} {{.Status}}");
            report.append("services:\n").append(states);
            for (String line : states.strip().split("\n")) {
                String[] fields = line.split(" ", 3);
                if (fields.length < 3 || fields[2].contains("(healthy)") || fields[2].startsWith("Exited (0)")) {
                    continue;
                }
                // The state has the health checks' last answers, the exit code and whether it was killed for memory.
                report.append("\n--- ").append(fields[0]).append(": restarts and state\n")
                        .append(run(List.of("docker", "inspect", "--format", "{{.RestartCount}} {{json .State}}",
                                fields[1]), Duration.ofSeconds(30)))
                        .append("--- ").append(fields[0]).append(": log's end\n")
                        .append(compose(Duration.ofSeconds(30), "logs", "--no-color", "--tail", "60", fields[0]));
            }
        }
        catch (IllegalStateException ex) {
            report.append("\n(and then: ").append(ex.getMessage()).append(')');
        }
        return report.toString();
    }

    /** One SQL statement on a service's PostgreSQL, as its owner; the rows unaligned, one a line. */
    String sql(String service, String database, String statement) {
        return compose(Duration.ofMinutes(1), "exec", "-T", service, "psql", "-X", "-q", "-t", "-A",
                "-v", "ON_ERROR_STOP=1", "-U", environment.get("POSTGRES_USER"), "-d", database, "-c", statement).strip();
    }

    long count(String service, String statement) {
        return Long.parseLong(sql(service, "ifdb", statement));
    }

    /** A management endpoint of a node or gateway, from inside its container, with the management credential. */
    String management(String service, String path) {
        int port = service.startsWith("wan-gateway") ? 8091 : 8081;
        return compose(Duration.ofSeconds(30), "exec", "-T", service, "curl", "-sf", "-u",
                "user:" + environment.get("MANAGEMENT_PASSWORD"), "http://127.0.0.1:" + port + path);
    }

    /** A file's text inside a running service's container. */
    String read(String service, String file) {
        return compose(Duration.ofSeconds(30), "exec", "-T", service, "cat", file);
    }

    String logs(String service) {
        return compose(Duration.ofSeconds(30), "logs", "--no-color", service);
    }

    /** {@code docker compose ARGS} in the repository, bounded by {@code timeout}; its output, or an exception with it. */
    String compose(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker", "compose", "--project-directory", root.toString(),
                "-f", root.resolve("docker-compose.yml").toString()));
        command.addAll(List.of(args));
        return run(command, timeout);
    }

    /** Any command with the stack's environment (the scenario script), bounded by {@code timeout}. */
    String run(List<String> command, Duration timeout) {
        return Commands.run(root, environment, command, timeout);
    }

    /**
     * Removes the containers, the networks and the volumes (the certificates and every database with them), the
     * profiles' too: the scenarios start the fanout nodes, whose databases would otherwise outlive the stack and keep
     * its password for the next.
     */
    @Override
    public void close() {
        down();
    }

    private void down() {
        compose(Duration.ofMinutes(3), "--profile", "fanout", "--profile", "grafana", "--profile", "pair", "down", "-v",
                "--remove-orphans",
                "--timeout", "20");
    }
}

package kr.c4i.gateway.deploy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static kr.c4i.gateway.deploy.Repository.environment;
import static kr.c4i.gateway.deploy.Repository.list;
import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker-compose.yml, checked without a Docker engine: the schema, its images, the variables it gives the nodes,
 * its ports, Prometheus's targets, the files it mounts and the variables {@code .env.example} must define.
 */
class ComposeFileTest {

    private static final String COMPOSE = "docker-compose.yml";

    /** Variables a node reads that are not Spring properties: the JVM's and Cyclone DDS's. */
    private static final Set<String> NON_SPRING_VARIABLES = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
            "CYCLONEDDS_URI", "TZ", "JAVA_HOME", "PATH");

    /** What the official postgres image reads (its documentation's "Environment Variables"). */
    private static final Set<String> POSTGRES_VARIABLES = Set.of("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB",
            "POSTGRES_INITDB_ARGS", "POSTGRES_INITDB_WALDIR", "POSTGRES_HOST_AUTH_METHOD", "PGDATA");

    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\$|\\$\\{([A-Za-z_][A-Za-z0-9_]*)[^}]*}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final Map<String, Object> compose = Repository.yaml(COMPOSE);

    private final Map<String, Object> services = map(compose.get("services"));

    @Test
    void composeFilePassesTheComposeSpecSchema() throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        Schema schema;
        try (InputStream in = getClass().getResourceAsStream("/compose-spec/compose-spec.json")) {
            // Its $id is relative (compose_spec.json): the classpath location is the base it resolves against.
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(SchemaLocation.of("classpath:compose-spec/compose-spec.json"), json.readTree(in));
        }
        List<Error> errors = schema.validate(json.valueToTree(compose));
        assertThat(errors).as("compose-spec schema errors in %s", COMPOSE).isEmpty();
    }

    @Test
    void everyServiceIsBuiltHereOrIsAPinnedOfficialImage() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            if (service.containsKey("build")) {
                Path dockerfile = dockerfile(service);
                if (!Files.isRegularFile(dockerfile)) {
                    problems.add(name + ": builds from " + dockerfile + ", which is not in the repository");
                }
            }
            else {
                String problem = Images.problem(String.valueOf(service.get("image")));
                if (problem != null) {
                    problems.add(name + ": " + problem);
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void everyVariableAServiceSetsIsOneItReads() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            Set<String> variables = environment(service).keySet();
            if (service.containsKey("build")) {
                ConfigurationMetadata metadata = ConfigurationMetadata.of(moduleMetadata(service));
                variables.stream().filter(variable -> !NON_SPRING_VARIABLES.contains(variable) && !metadata.binds(variable))
                        .forEach(variable -> problems.add(name + ": " + variable + " binds no property of the service"));
            }
            else {
                String image = String.valueOf(service.get("image"));
                for (String variable : variables) {
                    boolean known = image.startsWith("postgres:") ? POSTGRES_VARIABLES.contains(variable)
                            : image.startsWith("grafana/grafana:") && variable.startsWith("GF_");
                    if (!known) {
                        problems.add(name + ": " + variable + " is not read by " + image);
                    }
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void noSecretIsWrittenInTheFile() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> environment(map(definition)).forEach((variable, value) -> {
            if (variable.matches(".*(PASSWORD|SECRET|TOKEN).*") && !value.matches("\\$\\{[A-Za-z_][A-Za-z0-9_]*}")) {
                problems.add(name + ": " + variable + " is set to a value, not to a variable from .env");
            }
        }));
        assertThat(problems).isEmpty();
        assertThat(Repository.read(Repository.file(".gitignore")).lines()).as(".env is git-ignored").contains(".env");
    }

    @Test
    void hostPortsDoNotCollide() {
        Map<String, String> taken = new HashMap<>();
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            for (Object port : list(map(definition).get("ports"))) {
                HostPort host = HostPort.of(port);
                if (host == null) {
                    continue;
                }
                taken.forEach((other, owner) -> {
                    if (host.collidesWith(HostPort.parse(other))) {
                        problems.add(name + " publishes " + host + ", which " + owner + " publishes too");
                    }
                });
                taken.put(host.toString(), name);
            }
        });
        assertThat(problems).isEmpty();
        assertThat(taken).as("published ports").isNotEmpty();
    }

    @Test
    void prometheusScrapesEveryGatewayServicesMetricsWithTheCredential() {
        Map<String, Object> prometheus = map(services.get("prometheus"));
        String configuration = mountedFrom(prometheus, "/etc/prometheus/prometheus.yml");
        assertThat(configuration).as("prometheus.yml mounted into the prometheus service").isNotNull();
        Set<String> secrets = new LinkedHashSet<>();
        list(prometheus.get("secrets")).forEach(secret -> secrets.add("/run/secrets/"
                + (secret instanceof Map<?, ?> long_ ? String.valueOf(long_.get("source")) : secret)));

        Set<String> scraped = new LinkedHashSet<>();
        for (Object job : list(Repository.yaml(configuration).get("scrape_configs"))) {
            Map<String, Object> scrape = map(job);
            if (!"/actuator/prometheus".equals(scrape.get("metrics_path"))) {
                continue;
            }
            Object passwordFile = map(scrape.get("basic_auth")).get("password_file");
            assertThat(secrets).as("job %s's password file is a secret of the prometheus service", scrape.get("job_name"))
                    .contains(String.valueOf(passwordFile));
            for (Object staticConfig : list(scrape.get("static_configs"))) {
                list(map(staticConfig).get("targets")).forEach(target -> scraped.add(target.toString()));
            }
        }
        Set<String> expected = new TreeSet<>();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            if (service.containsKey("build")) {
                String port = environment(service).getOrDefault("MANAGEMENT_SERVER_PORT",
                        Dockerfile.read(dockerfile(service)).environment(target(service)).getOrDefault("MANAGEMENT_SERVER_PORT", "8081"));
                expected.add(name + ":" + port);
            }
        });
        assertThat(expected).as("gateway services").isNotEmpty();
        assertThat(scraped).as("targets scraped at /actuator/prometheus with basic_auth").containsAll(expected);
    }

    @Test
    void everyFileTheComposeFileUsesIsInTheRepository() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            for (Object volume : list(service.get("volumes"))) {
                String source = volume instanceof Map<?, ?> long_ ? String.valueOf(long_.get("source"))
                        : volume.toString().split(":")[0];
                if ((source.startsWith(".") || source.startsWith("/")) && !Files.exists(Repository.file(source))) {
                    problems.add(name + " mounts " + source + ", which is not in the repository");
                }
            }
            if (service.containsKey("build") && !Files.isDirectory(buildContext(service))) {
                problems.add(name + " builds in " + buildContext(service) + ", which is not in the repository");
            }
        });
        map(compose.get("secrets")).forEach((name, secret) -> {
            Object file = map(secret).get("file");
            if (file != null && !Files.exists(Repository.file(file.toString()))) {
                problems.add("secret " + name + " reads " + file + ", which is not in the repository");
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void envExampleDefinesExactlyTheVariablesTheComposeFileUses() {
        Set<String> used = new TreeSet<>();
        Matcher matcher = INTERPOLATION.matcher(Repository.read(Repository.file(COMPOSE)));
        while (matcher.find()) {
            if (!matcher.group().equals("$$")) {
                used.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
            }
        }
        map(compose.get("secrets")).values().forEach(secret -> {
            Object variable = map(secret).get("environment");
            if (variable != null) {
                used.add(variable.toString());
            }
        });
        Set<String> defined = new TreeSet<>();
        Repository.read(Repository.file(".env.example")).lines().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .forEach(line -> defined.add(line.split("=", 2)[0]));
        assertThat(used).as("variables docker-compose.yml uses").isNotEmpty();
        assertThat(defined).as(".env.example").containsExactlyInAnyOrderElementsOf(used);
    }

    @Test
    void theScenarioScriptKnowsTheProjectTheNetworksEachNodesAddressAndEachGatewaysWanAddress() {
        String script = Repository.read(Repository.file("deploy/scenarios/scenario.sh"));
        Map<String, String> scripted = new TreeMap<>();
        Matcher address = Pattern.compile("((?:node|wan-gateway)-[a-z0-9]+)\\) echo ([0-9.]+)").matcher(script);
        while (address.find()) {
            scripted.put(address.group(1), address.group(2));
        }
        // A node by its address on the network the script reconnects it to, a gateway by its WAN address.
        Matcher network = Pattern.compile("network=\"\\$\\{project}_([a-z0-9_-]+)\"").matcher(script);
        assertThat(network.find()).as("the network in scenario.sh").isTrue();
        Matcher wan = Pattern.compile("wan_network=\"\\$\\{project}_([a-z0-9_-]+)\"").matcher(script);
        assertThat(wan.find()).as("the WAN network in scenario.sh").isTrue();
        Map<String, String> composed = new TreeMap<>();
        services.forEach((name, definition) -> {
            String on = name.startsWith("node-") ? network.group(1) : name.startsWith("wan-gateway-") ? wan.group(1) : null;
            if (on != null) {
                Map<String, Object> networks = map(map(definition).get("networks"));
                composed.put(name, String.valueOf(map(networks.get(on)).get("ipv4_address")));
            }
        });
        assertThat(composed).as("nodes and gateways in docker-compose.yml").containsKeys("node-a", "wan-gateway-s1",
                "wan-gateway-s2");
        assertThat(scripted).as("addresses in scenario.sh").isEqualTo(composed);
        assertThat(script).contains("COMPOSE_PROJECT_NAME:-" + compose.get("name") + "}");
        assertThat(map(compose.get("networks"))).containsKeys(network.group(1), wan.group(1));
    }

    /**
     * DDS is fail-closed like broker TLS (.env may switch the transport to dds): every node and gateway names its DDS
     * Security or asks for plain DDS, and its broker TLS or plain TCP, or it does not start.
     */
    @Test
    void everyNodeAndGatewayChoosesItsDdsSecurityAndBrokerTlsExplicitly() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            Map<String, String> env = environment(map(definition));
            if (name.startsWith("node-")) {
                requireOneOf(name, env, problems, "GATEWAY_DDS_SECURITY_PLAIN", "GATEWAY_DDS_SECURITY_DIRECTORY");
                requireOneOf(name, env, problems, "GATEWAY_JMS_TLS_PLAINTCP", "GATEWAY_JMS_TLS_KEYSTORE");
            }
            else if (name.startsWith("wan-gateway-")) {
                requireOneOf(name, env, problems, "GATEWAY_WAN_LAN_DDS_SECURITY_PLAIN",
                        "GATEWAY_WAN_LAN_DDS_SECURITY_DIRECTORY");
                requireOneOf(name, env, problems, "GATEWAY_WAN_LAN_JMS_TLS_PLAINTCP",
                        "GATEWAY_WAN_LAN_JMS_TLS_KEYSTORE");
            }
        });
        assertThat(problems).isEmpty();
    }

    private static void requireOneOf(String service, Map<String, String> env, List<String> problems,
            String... variables) {
        if (Arrays.stream(variables).filter(env::containsKey).count() != 1) {
            problems.add(service + " sets not exactly one of " + List.of(variables));
        }
    }

    @Test
    void eachSitesNodesReachTheOtherSitesNodesThroughTheirOwnGateway() {
        // Site s1: a and b; site s2: c (the gateways' GATEWAY_ROUTING_SITES_*).
        Map<String, String> siteOf = new TreeMap<>();
        services.forEach((name, definition) -> {
            if (name.startsWith("wan-gateway-")) {
                environment(map(definition)).forEach((variable, value) -> {
                    if (variable.startsWith("GATEWAY_ROUTING_SITES_")) {
                        String site = variable.substring("GATEWAY_ROUTING_SITES_".length()).toLowerCase(Locale.ROOT);
                        for (String node : value.split(",")) {
                            siteOf.put(node.strip(), site);
                        }
                    }
                });
            }
        });
        assertThat(siteOf).as("sites of the nodes").containsOnlyKeys("a", "b", "c");
        List<String> problems = new ArrayList<>();
        for (String node : siteOf.keySet()) {
            Map<String, String> env = environment(map(services.get("node-" + node)));
            siteOf.forEach((peer, site) -> {
                String url = env.get("GATEWAY_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL");
                if (peer.equals(node)) {
                    return;
                }
                String expected = site.equals(siteOf.get(node)) ? "tcp://node-" + peer + ":61616"
                        : "tcp://wan-gateway-" + siteOf.get(node) + ":61616";
                if (!expected.equals(url)) {
                    problems.add("node-" + node + " reaches " + peer + " at " + url + ", not " + expected);
                }
            });
        }
        assertThat(problems).isEmpty();
    }

    static Path buildContext(Map<String, Object> service) {
        Object build = service.get("build");
        String context = build instanceof Map<?, ?> long_ ? String.valueOf(long_.get("context")) : String.valueOf(build);
        return Repository.file(context).normalize();
    }

    static Path dockerfile(Map<String, Object> service) {
        Object dockerfile = map(service.get("build") instanceof Map<?, ?> ? service.get("build") : null).get("dockerfile");
        return buildContext(service).resolve(dockerfile == null ? "Dockerfile" : dockerfile.toString()).normalize();
    }

    /** The stage of its Dockerfile a service's image is built to (null: the last). */
    static @Nullable String target(Map<String, Object> service) {
        Object target = map(service.get("build") instanceof Map<?, ?> ? service.get("build") : null).get("target");
        return target == null ? null : target.toString();
    }

    /** The configuration metadata Spring Boot generated for the module a service is built from. */
    static Path moduleMetadata(Map<String, Object> service) {
        Path metadata = buildContext(service).resolve("target/classes/META-INF/spring-configuration-metadata.json");
        assertThat(metadata).as("the module's configuration metadata (built before these tests)").isRegularFile();
        return metadata;
    }

    private static @Nullable String mountedFrom(Map<String, Object> service, String target) {
        for (Object volume : list(service.get("volumes"))) {
            String[] parts = volume.toString().split(":");
            if (parts.length >= 2 && parts[1].equals(target)) {
                return parts[0];
            }
        }
        return null;
    }

    /** A published port: host address (empty: every address), port, protocol. */
    private record HostPort(String address, int port, String protocol) {

        static @Nullable HostPort of(Object definition) {
            if (definition instanceof Map<?, ?> long_) {
                Object published = long_.get("published");
                return published == null ? null : new HostPort(String.valueOf(long_.get("host_ip") == null ? "" : long_.get("host_ip")),
                        Integer.parseInt(published.toString()), long_.get("protocol") == null ? "tcp" : long_.get("protocol").toString());
            }
            String text = definition.toString();
            String protocol = text.contains("/") ? text.substring(text.indexOf('/') + 1) : "tcp";
            String[] parts = text.replaceAll("/.*", "").split(":");
            return switch (parts.length) {
                case 2 -> new HostPort("", Integer.parseInt(parts[0]), protocol);
                case 3 -> new HostPort(parts[0], Integer.parseInt(parts[1]), protocol);
                default -> null;
            };
        }

        static HostPort parse(String text) {
            String[] parts = text.split("\\|");
            return new HostPort(parts[0], Integer.parseInt(parts[1]), parts[2]);
        }

        boolean collidesWith(HostPort other) {
            return port == other.port && protocol.equals(other.protocol)
                    && (address.isEmpty() || other.address.isEmpty() || address.equals(other.address));
        }

        @Override
        public String toString() {
            return address + "|" + port + "|" + protocol;
        }
    }
}

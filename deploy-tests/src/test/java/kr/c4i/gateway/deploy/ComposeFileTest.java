package kr.c4i.gateway.deploy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.deploy.Images.Built;

import static kr.c4i.gateway.deploy.Repository.environment;
import static kr.c4i.gateway.deploy.Repository.list;
import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker-compose.yml, checked without a Docker engine: the schema, its images, the variables it gives the nodes,
 * its ports, Prometheus's targets, the files it mounts, the security settings the pki service writes for the nodes
 * and gateways, and the variables {@code .env.example} must define.
 */
class ComposeFileTest {

    private static final String COMPOSE = "docker-compose.yml";

    /** Variables a node reads that are not Spring properties: the JVM's and Cyclone DDS's. */
    private static final Set<String> NON_SPRING_VARIABLES = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
            "CYCLONEDDS_URI", "TZ", "JAVA_HOME", "PATH");

    /** What the official postgres image reads (its documentation's "Environment Variables"). */
    private static final Set<String> POSTGRES_VARIABLES = Set.of("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB",
            "POSTGRES_INITDB_ARGS", "POSTGRES_INITDB_WALDIR", "POSTGRES_HOST_AUTH_METHOD", "PGDATA");

    /** An image chosen in .env, with the one bin/images builds (or a pinned official one) as its default. */
    private static final Pattern IMAGE_VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):-([^}]+)}");

    /** A credential from .env: {@code ${NAME}}, or {@code ${NAME:?message}}, which refuses to start without it. */
    private static final Pattern FROM_ENV = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*(:\\?[^}]*)?}");

    /** GATEWAY_SECURITY's values (.env.example), the first the default: the pki service writes settings for each. */
    private static final List<String> SECURITY_MODES = List.of("secured", "plain");

    /**
     * What a secured choice must set, by the end of its properties' prefix: mutual TLS needs the service's key store
     * and a trust store, DDS Security its site's documents, the WAN's sealing its identity and the authorities.
     */
    private static final Map<String, List<String>> SECURED = Map.of("tls", List.of("key-store", "trust-store"),
            "dds.security", List.of("directory"), "wan.security", List.of("certificate", "private-key",
                    "trusted-authorities"));

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

    /**
     * Each service's image is {@code ${VARIABLE:-default}} or a reference: the default, the value .env.example gives
     * the variable (which cp .env.example .env makes the one run) and every alternative .env.example names are built
     * by bin/images or pinned official images. Compose builds nothing: an image built here comes from bin/images.
     */
    @Test
    void everyServiceIsBuiltHereOrIsAPinnedOfficialImage() {
        List<String> problems = new ArrayList<>();
        Map<String, String> example = envExample();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            if (service.containsKey("build")) {
                problems.add(name + ": built by compose, not by " + Images.SCRIPT);
            }
            String image = String.valueOf(service.get("image"));
            Matcher variable = IMAGE_VARIABLE.matcher(image);
            if (variable.matches()) {
                if (!example.containsKey(variable.group(1))) {
                    problems.add(name + ": its image variable " + variable.group(1) + " is not in .env.example");
                }
            }
            else if (image.contains("$")) {
                problems.add(name + ": image " + image + " is neither a reference nor ${VARIABLE:-default}");
                return;
            }
            for (String reference : imagesOf(service)) {
                String problem = Images.problem(reference);
                if (problem != null) {
                    problems.add(name + ": " + problem);
                }
            }
        });
        Images.named(Repository.read(Repository.file(".env.example"))).forEach((variable, references) -> references
                .forEach(reference -> {
                    String problem = Images.problem(reference);
                    if (problem != null) {
                        problems.add(".env.example names " + variable + "=" + problem);
                    }
                }));
        assertThat(problems).isEmpty();
    }

    /**
     * A service that runs a script of the repository (its entrypoint) sets only what the script reads; any other
     * sets only what every image it may run reads (its default, .env.example's and the alternatives it names).
     */
    @Test
    void everyVariableAServiceSetsIsOneItReads() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            Set<String> variables = environment(service).keySet();
            String script = entrypointScript(service);
            if (script != null) {
                Set<String> read = Shell.variablesRead(Repository.read(Repository.file(script)));
                variables.stream().filter(variable -> !read.contains(variable))
                        .forEach(variable -> problems.add(name + ": " + variable + " is not read by " + script));
                return;
            }
            for (String image : imagesOf(service)) {
                Predicate<String> reads = reads(image);
                variables.stream().filter(reads.negate())
                        .forEach(variable -> problems.add(name + ": " + variable + " is not read by " + image));
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void noSecretIsWrittenInTheFile() {
        List<String> problems = new ArrayList<>();
        services.forEach((name, definition) -> environment(map(definition)).forEach((variable, value) -> {
            if (variable.matches(".*(PASSWORD|SECRET|TOKEN).*") && !FROM_ENV.matcher(value).matches()) {
                problems.add(name + ": " + variable + " is set to a value, not to a variable from .env");
            }
        }));
        // Nor in the example: an empty password is refused (pki service), a sample one would be kept.
        envExample().forEach((variable, value) -> {
            if (variable.matches(".*(PASSWORD|SECRET|TOKEN).*") && !value.isEmpty()) {
                problems.add(".env.example: " + variable + " has a value");
            }
        });
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
        Set<String> looked = new LinkedHashSet<>();
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
            for (Object dnsConfig : list(scrape.get("dns_sd_configs"))) {
                Map<String, Object> lookup = map(dnsConfig);
                list(lookup.get("names")).forEach(name -> looked.add(name + ":" + lookup.get("port")));
            }
        }
        // The nodes and gateways compose starts by default are static targets; one under a profile is found by a DNS
        // lookup of its name, as a static target would be down whenever its profile is not up.
        Set<String> always = new TreeSet<>();
        Set<String> profiled = new TreeSet<>();
        gatewayServices().forEach((name, service) -> {
            Built image = builtImage(service);
            String port = environment(service).getOrDefault("MANAGEMENT_SERVER_PORT", Dockerfile.read(image.dockerfile())
                    .environment(image.target()).getOrDefault("MANAGEMENT_SERVER_PORT", "8081"));
            (service.containsKey("profiles") ? profiled : always).add(name + ":" + port);
        });
        assertThat(always).as("gateway services").isNotEmpty();
        assertThat(profiled).as("gateway services under a profile").isNotEmpty();
        assertThat(scraped).as("targets scraped at /actuator/prometheus with basic_auth").containsAll(always)
                .doesNotContainAnyElementsOf(profiled);
        assertThat(looked).as("profiles' targets looked up by name, scraped at /actuator/prometheus with basic_auth")
                .containsAll(profiled);
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
        Set<String> defined = envExample().keySet();
        assertThat(used).as("variables docker-compose.yml uses").isNotEmpty();
        assertThat(defined).as(".env.example").containsExactlyInAnyOrderElementsOf(used);
    }

    @Test
    void theScenarioScriptKnowsTheProjectTheNetworksEachNodesAddressAndEachGatewaysWanAddress() {
        String script = Repository.read(Repository.file("deploy/scenarios/scenario.sh"));
        Map<String, String> scripted = new TreeMap<>();
        Matcher address = Pattern.compile("((?:node|wan-gateway)-[a-z0-9-]+)\\) echo ([0-9.]+)").matcher(script);
        while (address.find()) {
            scripted.put(address.group(1), address.group(2));
        }
        // A node by its address on the network the script reconnects it to, a gateway by its address on the other
        // network it is on, the WAN (the script finds the gateway's WAN interface by that address).
        Matcher network = Pattern.compile("network=\"\\$\\{project}_([a-z0-9_-]+)\"").matcher(script);
        assertThat(network.find()).as("the network in scenario.sh").isTrue();
        String lan = network.group(1);
        Map<String, String> composed = new TreeMap<>();
        Set<String> wans = new TreeSet<>();
        services.forEach((name, definition) -> {
            if (name.startsWith("node-")) {
                Map<String, Object> networks = map(map(definition).get("networks"));
                composed.put(name, String.valueOf(map(networks.get(lan)).get("ipv4_address")));
            }
            else if (name.startsWith("wan-gateway-")) {
                Map<String, Object> networks = map(map(definition).get("networks"));
                networks.keySet().stream().filter(on -> !on.equals(lan)).forEach(on -> {
                    wans.add(on);
                    composed.put(name, String.valueOf(map(networks.get(on)).get("ipv4_address")));
                });
            }
        });
        assertThat(wans).as("the WAN networks of the gateways").hasSize(1);
        assertThat(composed).as("nodes and gateways in docker-compose.yml").containsKeys("node-a", "wan-gateway-s1",
                "wan-gateway-s2");
        assertThat(scripted).as("addresses in scenario.sh").isEqualTo(composed);
        assertThat(script).contains("COMPOSE_PROJECT_NAME:-" + compose.get("name") + "}");
        assertThat(map(compose.get("networks"))).containsKeys(lan).containsKeys(wans.toArray(String[]::new));
    }

    /**
     * Broker TLS, DDS Security and the WAN's sealing are fail-closed (.env may switch the transport to dds): every
     * node and gateway imports its own settings file ({@code spring.config.import}), which the one-shot service
     * that writes the pki volume (deploy/compose/pki.sh) has written before it starts, mounted read-only. The
     * script writes, for each of them and in each mode, every security choice its module has (each {@code .plain}
     * or {@code .plain-tcp} property): secured, the choice's key material; plain, the plain property alone.
     */
    @Test
    void everyNodeAndGatewayImportsTheSecuritySettingsThePkiServiceWritesForIt() {
        Map<String, Map<String, Object>> gateways = gatewayServices();
        assertThat(gateways).as("nodes and gateways").isNotEmpty();
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, String>> written = new TreeMap<>();
        gateways.forEach((name, service) -> {
            String imported = environment(service).getOrDefault("SPRING_CONFIG_IMPORT", "");
            String file = "/pki/config/" + name + ".yaml";
            if (!imported.equals("file:" + file)) {
                problems.add(name + ": SPRING_CONFIG_IMPORT is '" + imported + "', not file:" + file);
                return;
            }
            String[] mount = mountOf(service, file);
            if (mount == null || mount[0].startsWith(".") || mount[0].startsWith("/") || !mount[2].equals("ro")) {
                problems.add(name + ": " + file + " is not in a named volume mounted read-only: " + List.of(mount == null ? new String[0] : mount));
                return;
            }
            List<String> writers = new ArrayList<>();
            services.forEach((other, definition) -> {
                String[] theirs = mountOf(map(definition), file);
                if (theirs != null && theirs[0].equals(mount[0]) && !theirs[2].equals("ro")) {
                    writers.add(other);
                }
            });
            if (writers.size() != 1) {
                problems.add(name + ": volume " + mount[0] + " is written by " + writers + ", not by one service");
                return;
            }
            Map<String, Object> writer = map(services.get(writers.getFirst()));
            Object condition = map(map(service.get("depends_on")).get(writers.getFirst())).get("condition");
            if (!"service_completed_successfully".equals(condition)) {
                problems.add(name + ": starts before " + writers.getFirst() + " has completed (depends_on condition " + condition + ")");
            }
            String script = entrypointScript(writer);
            if (script == null) {
                problems.add(writers.getFirst() + ": runs no script of the repository");
                return;
            }
            assertThat(environment(writer)).as("%s: secured by default", writers.getFirst())
                    .containsEntry("GATEWAY_SECURITY", "${GATEWAY_SECURITY:-" + SECURITY_MODES.getFirst() + "}");
            Path module = moduleMetadata(builtImage(service));
            ConfigurationMetadata metadata = ConfigurationMetadata.of(module);
            assertThat(metadata.binds("SPRING_CONFIG_IMPORT")).as("SPRING_CONFIG_IMPORT binds spring.config.import").isTrue();
            List<String> choices = ConfigurationMetadata.declared(module).entrySet().stream()
                    .filter(property -> property.getKey().matches(".*\\.plain(-tcp)?") && property.getValue().equals("java.lang.Boolean"))
                    .map(Map.Entry::getKey).sorted().toList();
            assertThat(choices).as("%s: its module's security choices", name).isNotEmpty();
            for (String mode : SECURITY_MODES) {
                String content = written.computeIfAbsent(script + " " + mode, key -> writes(script, mode)).get(file);
                if (content == null) {
                    problems.add(script + " writes no " + file + " with GATEWAY_SECURITY=" + mode);
                    continue;
                }
                Map<String, Object> settings = new TreeMap<>();
                flatten("", new Yaml().load(content), settings);
                settings.keySet().stream().filter(property -> !metadata.binds(ConfigurationMetadata.environmentForm(property)))
                        .forEach(property -> problems.add(file + " (" + mode + "): " + property + " binds no property of " + name));
                for (String plain : choices) {
                    String prefix = plain.substring(0, plain.lastIndexOf('.'));
                    List<String> chosen = settings.keySet().stream().filter(property -> property.startsWith(prefix + ".")).toList();
                    List<String> required = mode.equals("plain") ? List.of(plain) : secured(prefix);
                    if (mode.equals("plain") ? !chosen.equals(required) || !Boolean.TRUE.equals(settings.get(plain))
                            : chosen.contains(plain) || !chosen.containsAll(required)) {
                        problems.add(file + " (" + mode + "): sets " + chosen + " of " + prefix + ", not " + required);
                    }
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    private static List<String> secured(String prefix) {
        return SECURED.entrySet().stream().filter(choice -> prefix.endsWith("." + choice.getKey())).findAny()
                .map(choice -> choice.getValue().stream().map(property -> prefix + "." + property).toList())
                .orElseThrow(() -> new AssertionError("no secured form known for " + prefix));
    }

    /** The files {@code script} writes with GATEWAY_SECURITY={@code mode}: a here-document or printf's text. */
    private static Map<String, String> writes(String script, String mode) {
        Map<String, String> files = new TreeMap<>();
        Shell.walk(Repository.read(Repository.file(script)), Map.of("GATEWAY_SECURITY", mode), command -> {
            String output = command.output();
            List<String> words = command.arguments();
            if (output != null && words.getFirst().equals("cat") && command.input() != null) {
                files.put(output, command.input());
            }
            else if (output != null && words.getFirst().equals("printf") && words.size() == 2) {
                files.put(output, words.get(1).replace("\\n", "\n"));
            }
        });
        return files;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object value, Map<String, Object> properties) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, child) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, child, properties));
        }
        else {
            properties.put(prefix, value);
        }
    }

    /**
     * A node reaches each node of its site at that node's brokers (both of a pair, the primary first), and the other
     * site's nodes through its own site's gateway's LAN brokers (both of a pair, the primary first); its site's gateway
     * reaches each of them (its LAN side) as the nodes do, and each peer site's gateway at its WAN brokers.
     */
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
        Set<String> nodes = new TreeSet<>();
        services.values().forEach(definition -> {
            String id = environment(map(definition)).get("GATEWAY_NODE_ID");
            if (id != null) {
                nodes.add(id);
            }
        });
        assertThat(nodes).as("nodes").contains("a", "b", "c");
        assertThat(siteOf).as("sites of the nodes").containsOnlyKeys(nodes);
        List<String> problems = new ArrayList<>();
        for (String node : siteOf.keySet()) {
            Map<String, String> env = environment(map(services.get("node-" + node)));
            siteOf.forEach((peer, site) -> {
                String url = env.get("GATEWAY_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL");
                if (peer.equals(node)) {
                    return;
                }
                String expected = site.equals(siteOf.get(node)) ? brokersOf(peer)
                        : gatewayBrokersOf(siteOf.get(node), Broker.LAN);
                if (!expected.equals(url)) {
                    problems.add("node-" + node + " reaches " + peer + " at " + url + ", not " + expected);
                }
            });
        }
        services.forEach((name, definition) -> {
            if (name.startsWith("wan-gateway-")) {
                Map<String, String> env = environment(map(definition));
                String site = env.get("GATEWAY_WAN_SITE");
                siteOf.forEach((peer, at) -> {
                    String url = env.get("GATEWAY_WAN_LAN_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL");
                    if (at.equals(site) && !brokersOf(peer).equals(url)) {
                        problems.add(name + "'s LAN side reaches " + peer + " at " + url + ", not " + brokersOf(peer));
                    }
                });
                new TreeSet<>(siteOf.values()).stream().filter(peer -> !peer.equals(site)).forEach(peer -> {
                    String url = env.get("GATEWAY_WAN_JMS_PEERS_" + peer.toUpperCase(Locale.ROOT) + "_URL");
                    String expected = gatewayBrokersOf(peer, Broker.WAN);
                    if (!expected.equals(url)) {
                        problems.add(name + "'s jms link reaches " + peer + " at " + url + ", not " + expected);
                    }
                });
            }
        });
        assertThat(problems).isEmpty();
    }

    /**
     * A node on two machines (the pair profile's node-b2 beside node-b) is a JMS broker pair: the first the primary,
     * the second its backup, each the other's partner and each at its own host name; and the identity both present
     * (the node's, issued by deploy/compose/pki.sh) names each of their hosts and addresses.
     */
    @Test
    void aNodeOnTwoMachinesIsABrokerPairWhoseIdentityNamesBothHosts() {
        Map<String, List<String>> pairs = nodeServices();
        pairs.values().removeIf(members -> members.size() < 2);
        assertThat(pairs).as("nodes on two machines").containsOnlyKeys("b");
        Map<String, Set<String>> issued = issuedHosts();
        List<String> problems = new ArrayList<>();
        pairs.forEach((node, members) -> {
            assertThat(members).as("node %s's services", node).hasSize(2);
            List<String> roles = List.of("primary", "backup");
            for (int i = 0; i < 2; i++) {
                Map<String, Object> service = map(services.get(members.get(i)));
                Map<String, String> env = environment(service);
                String host = String.valueOf(service.get("hostname"));
                String partner = String.valueOf(map(services.get(members.get(1 - i))).get("hostname")) + ":61616";
                Map<String, String> expected = Map.of("GATEWAY_JMS_EMBEDDED_PAIR_ROLE", roles.get(i),
                        "GATEWAY_JMS_EMBEDDED_PAIR_PARTNER", partner, "GATEWAY_JMS_EMBEDDED_PAIR_HOST", host);
                expected.forEach((variable, value) -> {
                    if (!value.equals(env.get(variable))) {
                        problems.add(members.get(0) + ": " + variable + " is " + env.get(variable) + ", not " + value);
                    }
                });
                String address = String.valueOf(map(map(map(service.get("networks")).get("c4i"))).get("ipv4_address"));
                for (String name : List.of(host, address)) {
                    if (!issued.getOrDefault(node, Set.of()).contains(name)) {
                        problems.add("pki.sh issues " + node + "'s identity for " + issued.get(node) + ", without "
                                + name + " (" + members.get(i) + ")");
                    }
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    /**
     * A site's gateway on two machines (the pair profile's wan-gateway-s1-standby beside wan-gateway-s1) is one of an
     * active/standby pair whose LAN and WAN brokers are JMS broker pairs: the first the primaries, the second their
     * backups, each the other's partner and each at its own host name (LAN) or WAN address (WAN, the address its
     * broker binds); and the identity both present (the gateway's, issued by deploy/compose/pki.sh) names each of their
     * hosts and addresses.
     */
    @Test
    void aSitesGatewayOnTwoMachinesIsAPairOfBrokerPairsWhoseIdentityNamesBothHosts() {
        Map<String, List<String>> pairs = gatewaysBySite();
        pairs.values().removeIf(members -> members.size() < 2);
        assertThat(pairs).as("sites' gateways on two machines").containsOnlyKeys("s1");
        Map<String, Set<String>> issued = issuedHosts();
        List<String> problems = new ArrayList<>();
        pairs.forEach((site, members) -> {
            assertThat(members).as("site %s's gateways", site).hasSize(2);
            List<String> roles = List.of("primary", "backup");
            for (int i = 0; i < 2; i++) {
                Map<String, Object> service = map(services.get(members.get(i)));
                Map<String, Object> partner = map(services.get(members.get(1 - i)));
                Map<String, String> env = environment(service);
                String host = String.valueOf(service.get("hostname"));
                String wan = wanAddress(service);
                Map<String, String> expected = Map.of("GATEWAY_WAN_PAIR_ENABLED", "true",
                        "GATEWAY_WAN_LAN_JMS_EMBEDDED_PAIR_ROLE", roles.get(i),
                        "GATEWAY_WAN_LAN_JMS_EMBEDDED_PAIR_PARTNER", partner.get("hostname") + ":" + Broker.LAN.port,
                        "GATEWAY_WAN_LAN_JMS_EMBEDDED_PAIR_HOST", host,
                        "GATEWAY_WAN_JMS_EMBEDDED_PAIR_ROLE", roles.get(i),
                        "GATEWAY_WAN_JMS_EMBEDDED_PAIR_PARTNER", wanAddress(partner) + ":" + Broker.WAN.port);
                String member = members.get(i);
                expected.forEach((variable, value) -> {
                    if (!value.equals(env.get(variable))) {
                        problems.add(member + ": " + variable + " is " + env.get(variable) + ", not " + value);
                    }
                });
                // The WAN broker is reached at its acceptor's address unless its pair's host says otherwise.
                String wanHost = env.getOrDefault("GATEWAY_WAN_JMS_EMBEDDED_PAIR_HOST",
                        env.get("GATEWAY_WAN_JMS_EMBEDDED_HOST"));
                if (!wan.equals(wanHost)) {
                    problems.add(member + ": its WAN broker is reached at " + wanHost + ", not " + wan);
                }
                String id = env.getOrDefault("GATEWAY_WAN_NODEID", "gw-" + site);
                String lan = String.valueOf(map(map(map(service.get("networks")).get("c4i"))).get("ipv4_address"));
                for (String name : List.of(host, lan, wan)) {
                    if (!issued.getOrDefault(id, Set.of()).contains(name)) {
                        problems.add("pki.sh issues " + id + "'s identity for " + issued.get(id) + ", without " + name
                                + " (" + member + ")");
                    }
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    /** The hosts each identity deploy/compose/pki.sh issues names, by holder, over all its runs of the pki command. */
    private static Map<String, Set<String>> issuedHosts() {
        Map<String, Set<String>> issued = new TreeMap<>();
        Shell.walk(Repository.read(Repository.file("deploy/compose/pki.sh")), Map.of("GATEWAY_SECURITY", "secured"),
                command -> {
                    List<String> words = command.arguments();
                    for (int i = 0; i + 1 < words.size(); i++) {
                        String holder = words.get(i).equals("--holder") ? words.get(i + 1)
                                : words.get(i).startsWith("--holder=") ? words.get(i).substring(9) : null;
                        if (holder != null && holder.contains("=")) {
                            issued.computeIfAbsent(holder.substring(0, holder.indexOf('=')), k -> new TreeSet<>())
                                    .addAll(List.of(holder.substring(holder.indexOf('=') + 1).split(",")));
                        }
                    }
                });
        return issued;
    }

    /** Each node's services by node id, in the file's order: two for a node on two machines. */
    private Map<String, List<String>> nodeServices() {
        Map<String, List<String>> nodes = new TreeMap<>();
        services.forEach((name, definition) -> {
            String id = environment(map(definition)).get("GATEWAY_NODE_ID");
            if (id != null) {
                nodes.computeIfAbsent(id, k -> new ArrayList<>()).add(name);
            }
        });
        return nodes;
    }

    /** A node's brokers as its site's peers name them: its host, or both hosts of a pair, the primary first. */
    private String brokersOf(String node) {
        List<String> hosts = nodeServices().getOrDefault(node, List.of()).stream()
                .map(service -> "tcp://" + map(services.get(service)).get("hostname") + ":61616").toList();
        return hosts.size() == 1 ? hosts.getFirst() : "(" + String.join(",", hosts) + ")?ha=true";
    }

    /** Each site's gateway services by site id, in the file's order: two for a gateway on two machines. */
    private Map<String, List<String>> gatewaysBySite() {
        Map<String, List<String>> sites = new TreeMap<>();
        services.forEach((name, definition) -> {
            String site = environment(map(definition)).get("GATEWAY_WAN_SITE");
            if (site != null) {
                sites.computeIfAbsent(site, k -> new ArrayList<>()).add(name);
            }
        });
        return sites;
    }

    /**
     * A site's gateway's LAN or WAN brokers as its site's nodes or the peer sites' gateways name them: one, or both of
     * a pair, the primary first. The nodes' bridges follow the LAN pair (ha=true); the peers' links try the WAN
     * brokers in turn, the standby by its host name, which fails at once while it is not there.
     */
    private String gatewayBrokersOf(String site, Broker broker) {
        List<String> gateways = gatewaysBySite().getOrDefault(site, List.of());
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < gateways.size(); i++) {
            Map<String, Object> gateway = map(services.get(gateways.get(i)));
            urls.add("tcp://" + (broker == Broker.WAN && i == 0 ? wanAddress(gateway) : gateway.get("hostname")) + ":"
                    + broker.port);
        }
        return urls.size() == 1 ? urls.getFirst()
                : "(" + String.join(",", urls) + ")" + (broker == Broker.LAN ? "?ha=true" : "");
    }

    private static String wanAddress(Map<String, Object> gateway) {
        return String.valueOf(map(map(map(gateway.get("networks")).get("wan"))).get("ipv4_address"));
    }

    /** A gateway's brokers: the LAN's, by its host name; the jms link's, the primary by its address on the wan network. */
    private enum Broker {
        LAN(61616), WAN(61716);

        final int port;

        Broker(int port) {
            this.port = port;
        }
    }

    /** The image a service runs by default: its reference, or its {@code ${VARIABLE:-default}}'s default. */
    static String defaultImage(Map<String, Object> service) {
        String image = String.valueOf(service.get("image"));
        Matcher variable = IMAGE_VARIABLE.matcher(image);
        return variable.matches() ? variable.group(2) : image;
    }

    /** Every image a service may run: its default, .env.example's value and the alternatives it names. */
    static Set<String> imagesOf(Map<String, Object> service) {
        Set<String> images = new LinkedHashSet<>();
        images.add(defaultImage(service));
        Matcher variable = IMAGE_VARIABLE.matcher(String.valueOf(service.get("image")));
        if (variable.matches()) {
            String example = envExample().get(variable.group(1));
            if (example != null) {
                images.add(example);
            }
            images.addAll(Images.named(Repository.read(Repository.file(".env.example"))).getOrDefault(variable.group(1), List.of()));
        }
        return images;
    }

    /** The image bin/images builds that the service runs by default. */
    static Built builtImage(Map<String, Object> service) {
        return Images.built(defaultImage(service)).orElseThrow(() -> new AssertionError(defaultImage(service) + " is not built by " + Images.SCRIPT));
    }

    /**
     * The nodes and gateways: the services that run, as its own entrypoint, a Spring Boot service image bin/images
     * builds (the tools image runs a script instead).
     */
    static Map<String, Map<String, Object>> gatewayServices() {
        Map<String, Map<String, Object>> gateways = new TreeMap<>();
        map(Repository.yaml(COMPOSE).get("services")).forEach((name, definition) -> {
            Map<String, Object> service = map(definition);
            Built image = Images.built(defaultImage(service)).orElse(null);
            if (image != null && image.dockerfile() != null && !service.containsKey("entrypoint")
                    && runsSpringBoot(Dockerfile.read(image.dockerfile()), image.target())) {
                gateways.put(name, service);
            }
        });
        return gateways;
    }

    /** Whether the image of stage {@code target} starts a Spring Boot application (its launcher). */
    static boolean runsSpringBoot(Dockerfile dockerfile, @Nullable String target) {
        return dockerfile.image(target).stream()
                .anyMatch(i -> i.keyword().equals("ENTRYPOINT") && i.arguments().contains("org.springframework.boot.loader"));
    }

    /**
     * What reads a variable in {@code image}: its service's properties, the scripts it copies in (an entrypoint), or
     * the official image's contract.
     */
    static Predicate<String> reads(String image) {
        Built built = Images.built(image).orElse(null);
        if (built != null && built.dockerfile() != null && built.context() != null) {
            Dockerfile dockerfile = Dockerfile.read(built.dockerfile());
            if (runsSpringBoot(dockerfile, built.target())) {
                ConfigurationMetadata properties = ConfigurationMetadata.of(moduleMetadata(built));
                return variable -> NON_SPRING_VARIABLES.contains(variable) || properties.binds(variable);
            }
            Set<String> read = new TreeSet<>();
            for (Path script : copiedFromContext(dockerfile, built)) {
                read.addAll(Shell.variablesRead(Repository.read(script)));
            }
            return read::contains;
        }
        String repository = Images.repository(image);
        return switch (repository) {
            case "postgres" -> POSTGRES_VARIABLES::contains;
            case "grafana/grafana" -> variable -> variable.startsWith("GF_");
            default -> variable -> false;
        };
    }

    /** The configuration metadata Spring Boot generated for the module an image is built from (its context). */
    static Path moduleMetadata(Built image) {
        assertThat(image.context()).as("%s's build context", image.image()).isNotNull();
        Path metadata = image.context().resolve("target/classes/META-INF/spring-configuration-metadata.json");
        assertThat(metadata).as("%s's configuration metadata (built before these tests)", image.image()).isRegularFile();
        return metadata;
    }

    /** The files of its build context an image copies (its scripts). */
    static List<Path> copiedFromContext(Dockerfile dockerfile, Built built) {
        List<Path> files = new ArrayList<>();
        for (Dockerfile.Instruction copy : dockerfile.image(built.target())) {
            List<String> words = new ArrayList<>(List.of(copy.arguments().split("\\s+")));
            if (!copy.keyword().equals("COPY") || words.stream().anyMatch(word -> word.startsWith("--from="))) {
                continue;
            }
            words.removeIf(word -> word.startsWith("--"));
            words.subList(0, words.size() - 1).stream().map(built.context()::resolve).filter(Files::isRegularFile).forEach(files::add);
        }
        return files;
    }

    /** The repository's script a service runs as its entrypoint (mounted into it), or null. */
    static @Nullable String entrypointScript(Map<String, Object> service) {
        Object entrypoint = service.get("entrypoint");
        List<String> words = entrypoint instanceof List<?> list_ ? list_.stream().map(String::valueOf).toList()
                : entrypoint == null ? List.of() : List.of(entrypoint.toString().split("\\s+"));
        for (String word : words) {
            String source = mountedFrom(service, word);
            if (source != null && source.startsWith(".")) {
                return Repository.file(source).normalize().toString().substring(Repository.ROOT.toString().length() + 1);
            }
        }
        return null;
    }

    /** The volume holding {@code file} in the service: source, target and mode ("rw" unless given). */
    private static String @Nullable [] mountOf(Map<String, Object> service, String file) {
        for (Object volume : list(service.get("volumes"))) {
            String[] parts = volume.toString().split(":");
            if (parts.length >= 2 && file.startsWith(parts[1] + "/")) {
                return new String[] {parts[0], parts[1], parts.length > 2 ? parts[2] : "rw"};
            }
        }
        return null;
    }

    /** .env.example's variables and their values. */
    static Map<String, String> envExample() {
        Map<String, String> defined = new TreeMap<>();
        Repository.read(Repository.file(".env.example")).lines().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .forEach(line -> defined.put(line.split("=", 2)[0], line.contains("=") ? line.split("=", 2)[1] : ""));
        return defined;
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

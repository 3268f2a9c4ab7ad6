package kr.c4i.gateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import kr.c4i.gateway.deploy.Images.Built;

import static kr.c4i.gateway.deploy.Repository.list;
import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The Helm charts (deploy/helm/), checked without a cluster: {@code helm lint --strict} and {@code helm template} of
 * each chart with its examples (one instance, a pair; src/test/resources/helm/), every rendered object through
 * {@code kubernetes-validate --strict} against the Kubernetes schemas that package ships, what the objects say
 * (probes, anti-affinity, disruption budget, secrets, the image and the properties the services bind), and values
 * that cannot work refused, each naming the value. helm and kubernetes-validate come from bin/helm-tools, which
 * installs them on first use into a cache outside the repository (about 2 minutes on 2 cores, then none).
 */
class HelmChartTest {

    /**
     * The Kubernetes versions the rendered objects are validated against: the charts' floor (Chart.yaml's kubeVersion)
     * and the newest whose schemas kubernetes-validate (bin/helm-tools's version) ships.
     */
    private static final List<String> KUBERNETES_VERSIONS = List.of("1.27", "1.37");

    private static final String TOOLS = "bin/helm-tools";

    /** Each chart's examples that must render and validate: one instance, a pair over DDS and over JMS, the norm link. */
    static Stream<Arguments> examples() {
        return Stream.of(Arguments.of("db-bridge", "db-bridge.yaml"), Arguments.of("db-bridge", "db-bridge-pair.yaml"),
                Arguments.of("db-bridge", "db-bridge-jms-pair.yaml"), Arguments.of("wan-gateway", "wan-gateway.yaml"),
                Arguments.of("wan-gateway", "wan-gateway-pair.yaml"),
                Arguments.of("wan-gateway", "wan-gateway-jms-pair.yaml"),
                Arguments.of("wan-gateway", "wan-gateway-norm.yaml"));
    }

    /**
     * Values that cannot work, each one bad value over a chart's first example (or a bad example of its own), and what
     * the refusal must say.
     */
    static Stream<Arguments> refusals() {
        return Stream.of(
                refusal("db-bridge", "db-bridge-bad.yaml", List.of(), "at '/node/id': 'Node-A' does not match pattern"),
                refusal("wan-gateway", "wan-gateway-bad.yaml", List.of(),
                        "at '/link/peers': minProperties: got 0, want 1"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set", "replicaCount=two"),
                        "at '/replicaCount': got string, want integer"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set", "replicaCount=3"),
                        "at '/replicaCount': maximum: got 3, want 2"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set-string", "site="),
                        "at '/site': '' does not match pattern"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set-string", "site="),
                        "at '/site': '' does not match pattern"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set", "database.url=postgresql://postgres-a/ifdb"),
                        "at '/database/url': 'postgresql://postgres-a/ifdb' does not match pattern"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set", "node.transport=mqtt"),
                        "at '/node/transport': value must be one of 'jms', 'dds'"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set", "link.kind=udp"),
                        "at '/link/kind': value must be one of 'jms', 'dds', 'norm'"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set-string", "pki.secretName="),
                        "at '/pki/secretName': minLength: got 0, want 1"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set-string", "credentials.existingSecret="),
                        "at '/credentials/databasePassword': minLength: got 0, want 1"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set", "antiAffinity=sometimes"),
                        "at '/antiAffinity': value must be one of 'preferred', 'required'"),
                refusal("db-bridge", "db-bridge.yaml", List.of("--set", "config.gateway.jms.peers.b.password=secret"),
                        "config.gateway.jms.peers.b.password: a password in config would be written into the ConfigMap"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set", "config.spring.datasource.password=secret"),
                        "config.spring.datasource.password: a password in config would be written into the ConfigMap"),
                refusal("wan-gateway", "wan-gateway.yaml", List.of("--set", "replicaCount=2", "--set",
                        "link.kind=norm", "--set", "link.peers.s2=gw-s2.example:6010"),
                        "replicaCount 2 with link.kind norm: the peers' norm link reaches one address"));
    }

    private static Arguments refusal(String chart, String values, List<String> set, String message) {
        return Arguments.of(chart, values, set, message);
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void chartPassesHelmLintStrict(String chart, String values) {
        Run lint = Tools.get().helm("lint", "--strict", chart(chart).toString(), "-f", values(values).toString());
        assertThat(lint.exit()).as("helm lint --strict %s -f %s:%n%s%s", chart, values, lint.out(), lint.err()).isZero();
        assertThat(lint.out()).contains("0 chart(s) failed").doesNotContain("[WARNING]", "[ERROR]");
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void everyRenderedObjectPassesKubernetesValidateStrict(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        for (String version : KUBERNETES_VERSIONS) {
            Run validate = Tools.get().validate(version, rendered.file());
            assertThat(validate.exit()).as("kubernetes-validate --strict --kubernetes-version %s %s:%n%s%s", version,
                    rendered.file(), validate.out(), validate.err()).isZero();
            // One line per object, each passed: an object it could not find a schema for would not count.
            assertThat(validate.out().lines().filter(line -> line.contains(" passed for resource "))).as(
                    "objects kubernetes-validate passed against %s", version).hasSize(rendered.objects().size());
        }
        assertThat(rendered.kinds()).as("what %s renders", chart)
                .contains("StatefulSet", "Service", "ConfigMap", "PodDisruptionBudget");
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void probesAskTheManagementPortsLivenessAndReadinessGroups(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        Map<String, Object> container = rendered.container();
        int port = rendered.containerPort("management");
        assertThat(String.valueOf(port)).as("the port the service manages on")
                .isEqualTo(rendered.env("MANAGEMENT_SERVER_PORT"));
        assertThat(rendered.env("MANAGEMENT_SERVER_ADDRESS")).as("management listens where the kubelet probes")
                .isEqualTo("0.0.0.0");
        Map<String, String> paths = Map.of("livenessProbe", "/actuator/health/liveness", "readinessProbe",
                "/actuator/health/readiness", "startupProbe", "/actuator/health/liveness");
        paths.forEach((probe, path) -> {
            Map<String, Object> get = map(map(container.get(probe)).get("httpGet"));
            assertThat(get.get("path")).as("%s's path", probe).isEqualTo(path);
            assertThat(get.get("port")).as("%s's port", probe).isEqualTo("management");
        });
        // The groups those paths answer: liveness the JVM's own state only.
        Map<String, Object> management = map(rendered.application().get("management"));
        Map<String, Object> health = map(map(management.get("endpoint")).get("health"));
        assertThat(map(health.get("probes")).get("enabled")).isEqualTo(true);
        Map<String, Object> groups = map(health.get("group"));
        assertThat(map(groups.get("liveness")).get("include")).isEqualTo("livenessState");
        // Readiness: the state, the database and the service's own side (a node's transport, a gateway's LAN side
        // and store), never what depends on another site (a gateway's wanLink).
        List<String> readiness = List.of(String.valueOf(map(groups.get("readiness")).get("include")).split(","));
        assertThat(readiness).contains("readinessState", "db").doesNotContain("wanLink", "outbox")
                .contains(chart.equals("db-bridge") ? new String[] {"transport"} : new String[] {"lan", "store"});
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void aPairIsSpreadOverClusterNodesAndADisruptionLeavesOneRunning(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        Map<String, Object> statefulSet = rendered.object("StatefulSet");
        int replicas = (Integer) map(statefulSet.get("spec")).get("replicas");
        Map<String, Object> affinity = map(map(rendered.podSpec().get("affinity")).get("podAntiAffinity"));
        if (replicas == 1) {
            assertThat(affinity).as("a single pod's anti-affinity").isEmpty();
        }
        else {
            assertThat(replicas).isEqualTo(2);
            // preferred unless the example asks for required (the wan-gateway pair does).
            String expected = (Rendered.valuesFile(values).contains("antiAffinity: required") ? "required" : "preferred")
                    + "DuringSchedulingIgnoredDuringExecution";
            assertThat(affinity).as("a pair's anti-affinity").containsOnlyKeys(expected);
            Map<String, Object> term = map(list(affinity.get(expected)).getFirst());
            term = term.containsKey("podAffinityTerm") ? map(term.get("podAffinityTerm")) : term;
            assertThat(term.get("topologyKey")).isEqualTo("kubernetes.io/hostname");
            assertThat(rendered.podLabels()).as("the pods the anti-affinity keeps apart")
                    .containsAllEntriesOf(strings(map(map(term.get("labelSelector")).get("matchLabels"))));
        }
        Map<String, Object> budget = map(rendered.object("PodDisruptionBudget").get("spec"));
        assertThat(budget.get("maxUnavailable")).isEqualTo(1);
        assertThat(budget.get("unhealthyPodEvictionPolicy")).isEqualTo("AlwaysAllow");
        assertThat(rendered.podLabels()).as("the pods the disruption budget counts")
                .containsAllEntriesOf(strings(map(map(budget.get("selector")).get("matchLabels"))));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"db-bridge", "wan-gateway"})
    void requiredAntiAffinityIsAnOption(String chart) {
        Rendered rendered = Rendered.of(chart, chart + "-pair.yaml", "--set", "antiAffinity=required");
        assertThat(map(map(rendered.podSpec().get("affinity")).get("podAntiAffinity")))
                .containsOnlyKeys("requiredDuringSchedulingIgnoredDuringExecution");
        Rendered preferred = Rendered.of(chart, chart + "-pair.yaml", "--set", "antiAffinity=preferred");
        assertThat(map(map(preferred.podSpec().get("affinity")).get("podAntiAffinity")))
                .containsOnlyKeys("preferredDuringSchedulingIgnoredDuringExecution");
    }

    /** Every Service selects the StatefulSet's pods, on ports its container opens. */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void servicesReachThePodsOnPortsTheyOpen(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        List<Map<String, Object>> services = rendered.all("Service");
        assertThat(services).isNotEmpty();
        Map<String, Object> statefulSet = map(rendered.object("StatefulSet").get("spec"));
        assertThat(services).anySatisfy(service -> {
            assertThat(map(service.get("metadata")).get("name")).isEqualTo(statefulSet.get("serviceName"));
            assertThat(map(service.get("spec")).get("clusterIP")).isEqualTo("None");
        });
        for (Map<String, Object> service : services) {
            Map<String, Object> spec = map(service.get("spec"));
            assertThat(rendered.podLabels()).containsAllEntriesOf(strings(map(spec.get("selector"))));
            for (Object port : list(spec.get("ports"))) {
                String target = String.valueOf(map(port).get("targetPort"));
                assertThat(rendered.containerPort(target))
                        .as("%s's port %s", map(service.get("metadata")).get("name"), target)
                        .isEqualTo(map(port).get("port"));
            }
        }
    }

    /** Passwords reach the service as variables from a Secret; the ConfigMap holds none, nor a key named for one. */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void passwordsComeFromSecretsAndNeverFromTheConfigMap(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        List<Map<String, Object>> variables = list(rendered.container().get("env")).stream().map(Repository::map)
                .toList();
        List<Map<String, Object>> passwords = variables.stream()
                .filter(variable -> String.valueOf(variable.get("name")).endsWith("PASSWORD")).toList();
        assertThat(passwords).extracting(variable -> variable.get("name"))
                .contains("SPRING_DATASOURCE_PASSWORD", "SPRING_SECURITY_USER_PASSWORD");
        assertThat(passwords).allSatisfy(variable -> {
            assertThat(variable).as("%s", variable.get("name")).doesNotContainKey("value");
            assertThat(map(map(variable.get("valueFrom")).get("secretKeyRef"))).containsKeys("name", "key");
        });
        // The credentials Secret the chart makes holds every key the variables ask of it.
        String made = Rendered.valuesFile(values).contains("existingSecret:") ? null
                : String.valueOf(map(rendered.object("Secret").get("metadata")).get("name"));
        if (made != null) {
            Map<String, Object> data = map(rendered.object("Secret").get("data"));
            passwords.stream().map(variable -> map(map(variable.get("valueFrom")).get("secretKeyRef")))
                    .filter(reference -> made.equals(reference.get("name")))
                    .forEach(reference -> assertThat(data).containsKey(String.valueOf(reference.get("key"))));
        }
        else {
            assertThat(rendered.all("Secret")).as("a Secret made beside the existing one").isEmpty();
        }
        String configMaps = rendered.all("ConfigMap").stream().map(Object::toString).reduce("", String::concat);
        for (String secret : secretsIn(Rendered.valuesFile(values))) {
            assertThat(configMaps).as("the ConfigMaps").doesNotContain(secret);
        }
        assertThat(properties(rendered.application())).as("settings of application.yaml")
                .noneMatch(property -> property.toLowerCase().endsWith("password"));
    }

    /** Each setting of application.yaml and each variable of the pod binds a property of the service (or the JVM's). */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void everySettingAndVariableIsOneTheServiceReads(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        Built image = rendered.image();
        ConfigurationMetadata metadata = ConfigurationMetadata.of(ComposeFileTest.moduleMetadata(image));
        assertThat(properties(rendered.application())).isNotEmpty().allSatisfy(property -> {
            Matcher group = HEALTH_GROUP.matcher(property);
            // A map of JavaBeans (Boot's health groups), which the metadata does not describe entry by entry.
            boolean binds = group.matches() ? metadata.contains("management.endpoint.health.group")
                    : metadata.binds(ConfigurationMetadata.environmentForm(property));
            assertThat(binds).as("%s binds a property of %s", property, chart).isTrue();
        });
        assertThat(rendered.variables()).isNotEmpty().allSatisfy(variable -> assertThat(ComposeFileTest
                .reads(image.image()).test(variable)).as("%s is read by %s", variable, image.image()).isTrue());
        assertThat(rendered.env("SPRING_CONFIG_ADDITIONALLOCATION")).as("where application.yaml is read from")
                .isEqualTo("file:" + rendered.mountPath("config") + "/");
        // Beside it, a JMS pair's file per pod, each of whose settings binds too.
        List<String> files = new ArrayList<>(List.of("application.yaml"));
        for (String pod : rendered.pairPods()) {
            files.add(pod + ".yaml");
            assertThat(properties(rendered.configFile(pod + ".yaml"))).isNotEmpty().allSatisfy(property -> assertThat(
                    metadata.binds(ConfigurationMetadata.environmentForm(property)))
                    .as("%s of %s.yaml binds a property of %s", property, pod, chart).isTrue());
        }
        assertThat(map(rendered.object("ConfigMap").get("data"))).containsOnlyKeys(files);
    }

    /**
     * A JMS pair's embedded brokers (replicaCount 2): a node's broker, a WAN gateway's LAN and jms link brokers, each
     * an Artemis pair, pod 0 the primary and pod 1 its backup, each pod reading its brokers' roles, partners and
     * addresses from the ConfigMap's file of its own name, which application.yaml imports by the pod's hostname; each
     * at its name under the headless Service, which resolves before the pods are ready; each journal on the pod's own
     * volume. A DDS pair (a gateway's DDS LAN and dds or norm link), an external broker's or a single pod has no such
     * file.
     */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void aJmsPairsBrokersArePrimaryAndBackupEachAtItsPodsNameWithTheOtherAsPartner(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        if (rendered.pairPods().isEmpty()) {
            assertThat(map(rendered.application().get("spring")).get("config"))
                    .as("spring.config of a release that is not a broker pair").isNull();
            if (chart.equals("db-bridge")) {
                Rendered external = Rendered.of(chart, "db-bridge-jms-pair.yaml", "--set",
                        "broker.url=tcp://artemis:61616");
                assertThat(external.pairPods()).as("an external broker's pair").isEmpty();
                assertThat(map(external.application().get("spring")).get("config")).as("an external broker's import")
                        .isNull();
            }
            return;
        }
        assertBrokerPairs(rendered);
        if (chart.equals("wan-gateway")) {
            // A DDS LAN beside the jms link: the WAN broker's pair alone.
            assertBrokerPairs(Rendered.of(chart, values, "--set", "lan.transport=dds"));
        }
    }

    /** Each embedded broker a chart runs, by its container port's name: the properties its settings are under. */
    private static final Map<String, String> BROKERS = Map.of("broker", "gateway.jms", "lan-broker",
            "gateway.wan.lan.jms", "wan-broker", "gateway.wan.jms");

    /** Every broker the pods open a port for is a pair: its pods' files, their import, the Service, the volumes. */
    private static void assertBrokerPairs(Rendered rendered) {
        Map<String, Object> spec = map(rendered.object("StatefulSet").get("spec"));
        String statefulSet = String.valueOf(map(rendered.object("StatefulSet").get("metadata")).get("name"));
        String headless = String.valueOf(spec.get("serviceName"));
        assertThat(spec.get("replicas")).isEqualTo(2);
        assertThat(rendered.pairPods()).containsExactly(statefulSet + "-0", statefulSet + "-1");
        assertThat(list(map(map(rendered.application().get("spring")).get("config")).get("import")))
                .as("spring.config.import")
                .containsExactly("file:" + rendered.mountPath("config") + "/${HOSTNAME}.yaml");
        String primaryHost = statefulSet + "-0." + headless + ".c4i.svc";
        String backupHost = statefulSet + "-1." + headless + ".c4i.svc";
        Map<String, String> primary = new LinkedHashMap<>();
        Map<String, String> backup = new LinkedHashMap<>();
        BROKERS.forEach((portName, prefix) -> {
            if (!rendered.hasContainerPort(portName)) {
                return;
            }
            int port = rendered.containerPort(portName);
            String pair = prefix + ".embedded.pair.";
            primary.putAll(Map.of(pair + "role", "primary", pair + "host", primaryHost, pair + "partner",
                    backupHost + ":" + port));
            backup.putAll(Map.of(pair + "role", "backup", pair + "host", backupHost, pair + "partner",
                    primaryHost + ":" + port));
            String journal = ConfigurationMetadata.environmentForm(prefix + ".embedded.data-directory");
            assertThat(rendered.env(journal)).as("%s's journal", prefix).startsWith(rendered.mountPath("data") + "/");
        });
        assertThat(primary).as("the pods' brokers").isNotEmpty();
        assertThat(settings(rendered.configFile(statefulSet + "-0.yaml"))).containsExactlyInAnyOrderEntriesOf(primary);
        assertThat(settings(rendered.configFile(statefulSet + "-1.yaml"))).containsExactlyInAnyOrderEntriesOf(backup);
        Map<String, Object> service = rendered.all("Service").stream()
                .filter(object -> headless.equals(map(object.get("metadata")).get("name"))).findFirst().orElseThrow();
        assertThat(map(service.get("spec")).get("publishNotReadyAddresses")).as("%s resolves unready pods", headless)
                .isEqualTo(true);
        assertThat(list(spec.get("volumeClaimTemplates"))).as("each broker's journal on its pod's own volume")
                .anySatisfy(claim -> assertThat(map(map(claim).get("metadata")).get("name")).isEqualTo("data"));
        assertThat(rendered.object("PodDisruptionBudget")).isNotNull();
    }

    private static final Pattern HEALTH_GROUP = Pattern
            .compile("management\\.endpoint\\.health\\.group\\.[a-z]+\\.(include|exclude)");

    /** Every file application.yaml names under /pki is a file the PKI Secret's volume puts there, and none other. */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void theSettingsFindThePkiFilesWhereTheSecretIsMounted(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        String mount = rendered.mountPath("pki");
        List<String> mounted = list(map(rendered.volume("pki").get("secret")).get("items")).stream()
                .map(item -> mount + "/" + map(item).get("path")).toList();
        List<String> named = new ArrayList<>();
        for (Map.Entry<String, String> setting : settings(rendered.application()).entrySet()) {
            for (String value : setting.getValue().split(",")) {
                if (value.startsWith(mount + "/")) {
                    named.add(value);
                    // A directory (the DDS Security set) holds mounted files; anything else is one.
                    assertThat(setting.getKey().endsWith(".directory")
                            ? mounted.stream().anyMatch(file -> file.startsWith(value + "/")) : mounted.contains(value))
                            .as("%s=%s is among the mounted %s", setting.getKey(), value, mounted).isTrue();
                }
            }
        }
        assertThat(named).as("PKI files the settings name").isNotEmpty();
        assertThat(mounted).as("mounted files no setting names").allSatisfy(file -> assertThat(named)
                .anySatisfy(name -> assertThat(file.equals(name) || file.startsWith(name + "/")).isTrue()));
        assertThat(map(rendered.volume("pki").get("secret")).get("defaultMode")).as("0440").isEqualTo(0440);
    }

    /** The image is the one bin/images builds, never pulled; the pod runs as its user; its journals are on the volume. */
    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("examples")
    void thePodRunsTheImageBinImagesBuildsAndKeepsItsJournalsOnItsVolume(String chart, String values) {
        Rendered rendered = Rendered.of(chart, values);
        Built image = rendered.image();
        assertThat(image.target()).as("the Dockerfile stage of %s", image.image()).isEqualTo(chart);
        assertThat(rendered.container().get("imagePullPolicy")).isEqualTo("IfNotPresent");
        Dockerfile dockerfile = Dockerfile.read(Objects.requireNonNull(image.dockerfile()));
        String runs = dockerfile.image(image.target()).stream().filter(instruction -> instruction.keyword().equals("RUN"))
                .map(Dockerfile.Instruction::arguments).reduce("", String::concat);
        Matcher user = Pattern.compile("useradd [^&]*--uid ([0-9]+)").matcher(runs);
        Matcher group = Pattern.compile("groupadd [^&]*--gid ([0-9]+)").matcher(runs);
        assertThat(user.find() && group.find()).as("the image's useradd --uid and groupadd --gid").isTrue();
        Map<String, Object> security = map(rendered.podSpec().get("securityContext"));
        assertThat(security.get("runAsUser")).isEqualTo(Integer.valueOf(user.group(1)));
        assertThat(security.get("fsGroup")).isEqualTo(Integer.valueOf(group.group(1)));
        // The image's own management port is the chart's default, and each journal the image puts on its volume
        // the chart keeps on the data volume.
        Map<String, String> environment = dockerfile.environment(image.target());
        assertThat(environment.get("MANAGEMENT_SERVER_PORT")).isEqualTo(rendered.env("MANAGEMENT_SERVER_PORT"));
        String data = rendered.mountPath("data");
        environment.forEach((variable, value) -> {
            if (variable.endsWith("_DATADIRECTORY")) {
                assertThat(rendered.env(variable)).as(variable).isEqualTo(value).startsWith(data + "/");
            }
        });
        Map<String, Object> spec = map(rendered.object("StatefulSet").get("spec"));
        assertThat(list(spec.get("volumeClaimTemplates"))).as("the data volume, each pod's own")
                .anySatisfy(claim -> assertThat(map(map(claim).get("metadata")).get("name")).isEqualTo("data"));
    }

    @ParameterizedTest(name = "{0} with {1} {2}")
    @MethodSource("refusals")
    void valuesThatCannotWorkAreRefusedNamingTheValue(String chart, String values, List<String> set, String message) {
        List<String> arguments = new ArrayList<>(List.of("template", "refused", chart(chart).toString(), "-f",
                values(values).toString()));
        arguments.addAll(set);
        Run template = Tools.get().helm(arguments.toArray(String[]::new));
        assertThat(template.exit()).as("helm %s:%n%s", String.join(" ", arguments), template.out()).isNotZero();
        assertThat(template.out()).as("what it rendered").isEmpty();
        assertThat(template.err()).contains(message);
    }

    // --- helpers --------------------------------------------------------------------------------------------------

    private static Path chart(String name) {
        return Repository.file("deploy/helm/" + name);
    }

    private static Path values(String name) {
        URL resource = HelmChartTest.class.getResource("/helm/" + name);
        assertThat(resource).as("test resource helm/%s", name).isNotNull();
        try {
            return Path.of(Objects.requireNonNull(resource).toURI());
        }
        catch (URISyntaxException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The values of a values file's keys that name a password. */
    private static List<String> secretsIn(String valuesFile) {
        List<String> secrets = new ArrayList<>();
        Matcher matcher = Pattern.compile("(?im)^\\s*[a-z]*password:\\s*(\\S+)\\s*$").matcher(valuesFile);
        while (matcher.find()) {
            secrets.add(matcher.group(1));
        }
        return secrets;
    }

    /** Each leaf of a YAML tree by its dotted name (Spring's property name). */
    private static Map<String, String> settings(Map<String, Object> yaml) {
        Map<String, String> settings = new LinkedHashMap<>();
        flatten("", yaml, settings);
        return settings;
    }

    private static List<String> properties(Map<String, Object> yaml) {
        return List.copyOf(settings(yaml).keySet());
    }

    private static void flatten(String prefix, Map<String, Object> yaml, Map<String, String> settings) {
        yaml.forEach((key, value) -> {
            String name = prefix.isEmpty() ? key : prefix + "." + key;
            if (value instanceof Map<?, ?>) {
                flatten(name, map(value), settings);
            }
            else {
                settings.put(name, String.valueOf(value));
            }
        });
    }

    private static Map<String, String> strings(Map<String, Object> map) {
        Map<String, String> strings = new LinkedHashMap<>();
        map.forEach((key, value) -> strings.put(key, String.valueOf(value)));
        return strings;
    }

    /** What a command printed, and how it ended. */
    private record Run(int exit, String out, String err) {
    }

    /**
     * helm and kubernetes-validate, as bin/helm-tools installs them (once per machine) and names them; helm's own
     * directories under target/, so that nothing of the user's helm configuration is read or written.
     */
    private record Tools(String helm, String validate, Path home) {

        private static @Nullable Tools tools;

        static synchronized Tools get() {
            if (tools == null) {
                Run env = run(List.of(Repository.file(TOOLS).toString(), "env"), Map.of(), 30);
                if (env.exit() != 0) {
                    String last = env.err().strip().lines().reduce((first, second) -> second).orElse("no output");
                    fail(TOOLS + " env could not provide helm and kubernetes-validate (" + last + "): run "
                            + TOOLS + " install");
                }
                Map<String, String> exported = new HashMap<>();
                Matcher export = Pattern.compile("(?m)^export ([A-Z_]+)=(\\S+)$").matcher(env.out());
                while (export.find()) {
                    exported.put(export.group(1), export.group(2));
                }
                assertThat(exported).as("what %s env exports", TOOLS).containsKeys("HELM", "KUBERNETES_VALIDATE");
                tools = new Tools(exported.get("HELM"), exported.get("KUBERNETES_VALIDATE"),
                        Repository.file("deploy-tests/target/helm"));
            }
            return tools;
        }

        Run helm(String... arguments) {
            List<String> command = new ArrayList<>(List.of(helm));
            command.addAll(List.of(arguments));
            return run(command, Map.of("HELM_CACHE_HOME", home.resolve("cache").toString(), "HELM_CONFIG_HOME",
                    home.resolve("config").toString(), "HELM_DATA_HOME", home.resolve("data").toString(),
                    "KUBECONFIG", home.resolve("no-cluster").toString()), 2);
        }

        Run validate(String kubernetesVersion, Path file) {
            return run(List.of(validate, "--strict", "--kubernetes-version", kubernetesVersion, file.toString()),
                    Map.of(), 2);
        }

        /** Runs a command in the repository's root, with no input; its output and errors read whole once it ends. */
        private static Run run(List<String> command, Map<String, String> environment, int minutes) {
            try {
                Path out = Files.createTempFile("helm-chart-test", ".out");
                Path err = Files.createTempFile("helm-chart-test", ".err");
                try {
                    ProcessBuilder builder = new ProcessBuilder(command).directory(Repository.ROOT.toFile())
                            .redirectOutput(out.toFile()).redirectError(err.toFile());
                    builder.environment().putAll(environment);
                    Process process = builder.start();
                    process.getOutputStream().close();
                    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
                        process.destroyForcibly();
                        fail(String.join(" ", command) + " did not end within " + minutes + " minutes");
                    }
                    return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
                }
                finally {
                    Files.deleteIfExists(out);
                    Files.deleteIfExists(err);
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    /** A chart rendered by {@code helm template} with a values file (and more arguments), kept for every test. */
    private record Rendered(String chart, Path file, List<Map<String, Object>> objects) {

        private static final Map<List<String>, Rendered> RENDERED = new ConcurrentHashMap<>();

        static Rendered of(String chart, String values, String... more) {
            List<String> key = new ArrayList<>(List.of(chart, values));
            key.addAll(List.of(more));
            return RENDERED.computeIfAbsent(key, k -> render(chart, values, List.of(more)));
        }

        static String valuesFile(String values) {
            return Repository.read(HelmChartTest.values(values));
        }

        private static Rendered render(String chart, String values, List<String> more) {
            // The release as the example's name: its objects' names say which example they are.
            String release = values.replace(".yaml", "");
            List<String> arguments = new ArrayList<>(List.of("template", release,
                    HelmChartTest.chart(chart).toString(), "-f", HelmChartTest.values(values).toString(),
                    "--namespace", "c4i", "--kube-version", KUBERNETES_VERSIONS.getLast()));
            arguments.addAll(more);
            Tools tools = Tools.get();
            Run template = tools.helm(arguments.toArray(String[]::new));
            assertThat(template.exit()).as("helm %s:%n%s", String.join(" ", arguments), template.err()).isZero();
            List<Map<String, Object>> objects = new ArrayList<>();
            for (Object document : new Yaml(new LoaderOptions()).loadAll(template.out())) {
                if (document != null) {
                    objects.add(map(document));
                }
            }
            try {
                Files.createDirectories(tools.home());
                String variant = more.isEmpty() ? "" : "-" + Integer.toHexString(more.hashCode());
                Path file = tools.home().resolve(release + variant + ".yaml");
                Files.writeString(file, template.out());
                return new Rendered(chart, file, List.copyOf(objects));
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }

        List<String> kinds() {
            return objects.stream().map(object -> String.valueOf(object.get("kind"))).distinct().toList();
        }

        List<Map<String, Object>> all(String kind) {
            return objects.stream().filter(object -> kind.equals(object.get("kind"))).toList();
        }

        Map<String, Object> object(String kind) {
            List<Map<String, Object>> all = all(kind);
            assertThat(all).as("%s's %s objects", chart, kind).hasSize(1);
            return all.getFirst();
        }

        Map<String, Object> podSpec() {
            return map(map(map(object("StatefulSet").get("spec")).get("template")).get("spec"));
        }

        Map<String, String> podLabels() {
            Map<String, Object> template = map(map(object("StatefulSet").get("spec")).get("template"));
            return strings(map(map(template.get("metadata")).get("labels")));
        }

        Map<String, Object> container() {
            List<Object> containers = list(podSpec().get("containers"));
            assertThat(containers).as("%s's containers", chart).hasSize(1);
            return map(containers.getFirst());
        }

        /** The container's variables with a value of their own (not from a Secret). */
        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            list(container().get("env")).stream().map(Repository::map).filter(variable -> variable.containsKey("value"))
                    .forEach(variable -> env.put(String.valueOf(variable.get("name")),
                            String.valueOf(variable.get("value"))));
            return env;
        }

        /** The names of all the container's variables, from a Secret too. */
        List<String> variables() {
            return list(container().get("env")).stream().map(variable -> String.valueOf(map(variable).get("name")))
                    .toList();
        }

        String env(String name) {
            assertThat(env()).as("%s's variables", chart).containsKey(name);
            return env().get(name);
        }

        int containerPort(String name) {
            return list(container().get("ports")).stream().map(Repository::map)
                    .filter(port -> name.equals(port.get("name")))
                    .map(port -> (Integer) port.get("containerPort")).findFirst()
                    .orElseThrow(() -> new AssertionError(chart + "'s container has no port " + name));
        }

        boolean hasContainerPort(String name) {
            return list(container().get("ports")).stream().anyMatch(port -> name.equals(map(port).get("name")));
        }

        String mountPath(String volume) {
            return list(container().get("volumeMounts")).stream().map(Repository::map)
                    .filter(mount -> volume.equals(mount.get("name")))
                    .map(mount -> String.valueOf(mount.get("mountPath")))
                    .findFirst().orElseThrow(() -> new AssertionError(chart + " mounts no volume " + volume));
        }

        Map<String, Object> volume(String name) {
            return list(podSpec().get("volumes")).stream().map(Repository::map)
                    .filter(volume -> name.equals(volume.get("name"))).findFirst()
                    .orElseThrow(() -> new AssertionError(chart + " has no volume " + name));
        }

        /** The service's application.yaml, as the ConfigMap holds it. */
        Map<String, Object> application() {
            return configFile("application.yaml");
        }

        /** A file of the ConfigMap, read as YAML. */
        Map<String, Object> configFile(String name) {
            Map<String, Object> data = map(object("ConfigMap").get("data"));
            assertThat(data).as("%s's ConfigMap", chart).containsKey(name);
            Map<String, Object> file = new Yaml(new LoaderOptions()).load(String.valueOf(data.get(name)));
            return file == null ? Map.of() : file;
        }

        /** The pods a JMS pair's ConfigMap has a file for (their names), in order; none unless a broker pair. */
        List<String> pairPods() {
            return map(object("ConfigMap").get("data")).keySet().stream().filter(key -> !key.equals("application.yaml"))
                    .map(key -> key.substring(0, key.length() - ".yaml".length())).sorted().toList();
        }

        /** The image bin/images builds that the container runs. */
        Built image() {
            String reference = String.valueOf(container().get("image"));
            List<String> built = Images.builtHere().stream().map(Built::image).toList();
            return Images.built(reference).orElseThrow(() -> new AssertionError(chart + " runs " + reference + ", which "
                    + Images.SCRIPT + " does not build (" + built + ")"));
        }
    }
}

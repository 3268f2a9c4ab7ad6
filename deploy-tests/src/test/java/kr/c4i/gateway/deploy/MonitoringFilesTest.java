package kr.c4i.gateway.deploy;

import static kr.c4i.gateway.deploy.Repository.list;
import static kr.c4i.gateway.deploy.Repository.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.deploy.DashboardQueries.Query;

/**
 * The dashboards and alert rules as Grafana and Prometheus get them from docker-compose.yml, checked without either:
 * each file is mounted where the configuration looks for it, parses, and names the provisioned datasource; every
 * metric of MetricNames is on a panel or in an alert, or listed as not yet.
 * (That every metric they query exists is tools' DashboardMetricsTest, against running nodes; that every query is valid
 * and finds series is PrometheusQueries', against a Prometheus scraping them.)
 */
class MonitoringFilesTest {

    private static final Map<String, Object> SERVICES = map(Repository.yaml("docker-compose.yml").get("services"));

    /**
     * MetricNames' metrics that no panel and no alert shows yet (Micrometer names). A metric added to MetricNames goes
     * on a dashboard, into an alert, or here; one that gets a panel leaves this list.
     */
    private static final Set<String> NOT_ON_A_DASHBOARD = Set.of(MetricNames.INBOUND_REJECTED,
            MetricNames.CLEARANCE_REFUSED, MetricNames.WAN_FRAMES_REFUSED, MetricNames.WAN_STORE_DUPLICATES,
            MetricNames.WAN_POLICY_RELOADS,
            MetricNames.WAN_QUARANTINED, MetricNames.CUSTODY_PRUNED, MetricNames.CUSTODY_PRUNE_FAILURES,
            MetricNames.CUSTODY_INDEX_MERGE_FAILURES, MetricNames.OUTBOX_TRACEPARENT_INVALID);

    /** What Prometheus appends to a Micrometer name: counters' total, timers' and gauges' base units, histograms. */
    private static final Pattern SUFFIX = Pattern.compile("(_total|_seconds(_bucket|_count|_sum|_max)?|_bytes)?");

    private static final Pattern WORD = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    @Test
    void prometheusLoadsTheAlertRulesFromTheRepository() {
        List<Object> ruleFiles = list(Repository.yaml("deploy/prometheus/prometheus.yml").get("rule_files"));
        assertThat(ruleFiles).as("prometheus.yml's rule_files").isNotEmpty();
        for (Object ruleFile : ruleFiles) {
            String source = mountedFrom(map(SERVICES.get("prometheus")), ruleFile.toString());
            assertThat(source).as("%s mounted into the prometheus service", ruleFile).isNotNull();
            Map<String, Object> rules = Repository.yaml(source);
            List<Object> groups = list(rules.get("groups"));
            assertThat(groups).as(source + "'s groups").isNotEmpty();
            Set<String> names = new HashSet<>();
            for (Object group : groups) {
                for (Object definition : list(map(group).get("rules"))) {
                    Map<String, Object> rule = map(definition);
                    assertThat(rule.get("alert")).as("an alert's name in " + source).isNotNull();
                    assertThat(names.add(rule.get("alert").toString())).as("alert %s named once", rule.get("alert"))
                            .isTrue();
                    assertThat(rule.get("expr")).as("%s's expr", rule.get("alert")).isNotNull();
                    assertThat(map(rule.get("labels")).get("severity")).as("%s's severity", rule.get("alert"))
                            .isIn("critical", "warning", "info");
                    assertThat(map(rule.get("annotations")).get("summary")).as("%s's summary", rule.get("alert"))
                            .isNotNull();
                }
            }
        }
    }

    @Test
    void grafanaProvisionsEveryDashboardOnThePrometheusDatasource() throws IOException {
        Map<String, Object> grafana = map(SERVICES.get("grafana"));
        String dashboardsPath = map(map(list(Repository.yaml("deploy/grafana/provisioning/dashboards/c4i-gateway.yml")
                .get("providers")).getFirst()).get("options")).get("path").toString();
        String source = mountedFrom(grafana, dashboardsPath);
        assertThat(source).as("the provider's path %s mounted into the grafana service", dashboardsPath)
                .isEqualTo("./deploy/grafana/dashboards");
        String datasource = map(list(Repository.yaml("deploy/grafana/provisioning/datasources/prometheus.yml")
                .get("datasources")).getFirst()).get("uid").toString();

        List<Path> files;
        try (Stream<Path> listing = Files.list(Repository.file(source))) {
            files = listing.filter(file -> file.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(files).extracting(file -> file.getFileName().toString()).contains("bridge.json", "jms.json",
                "dds.json", "wan-gateway.json", "jvm.json");
        JsonMapper json = JsonMapper.builder().build();
        Set<String> uids = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (Path file : files) {
            JsonNode dashboard = json.readTree(file.toFile());
            if (!uids.add(dashboard.path("uid").asString())) {
                problems.add(file.getFileName() + ": uid " + dashboard.path("uid").asString() + " used twice");
            }
            Set<Integer> ids = new HashSet<>();
            for (JsonNode panel : DashboardQueries.panels(dashboard)) {
                String where = file.getFileName() + ": panel '" + panel.path("title").asString() + "'";
                if (!ids.add(panel.path("id").asInt(0))) {
                    problems.add(where + ": id " + panel.path("id").asInt(0) + " missing or used twice");
                }
                // Grafana lays panels out on a grid 24 columns wide.
                JsonNode grid = panel.path("gridPos");
                if (grid.path("w").asInt(0) <= 0 || grid.path("h").asInt(0) <= 0
                        || grid.path("x").asInt(-1) < 0 || grid.path("x").asInt(0) + grid.path("w").asInt(0) > 24
                        || grid.path("y").asInt(-1) < 0) {
                    problems.add(where + ": gridPos " + grid + " off Grafana's 24-column grid");
                }
                if (panel.path("type").asString().equals("row")) {
                    continue;
                }
                String uid = panel.path("datasource").path("uid").asString();
                if (!datasource.equals(uid)) {
                    problems.add(where + " uses datasource " + uid);
                }
                if (panel.path("targets").isEmpty()) {
                    problems.add(where + " has no query");
                }
                Set<String> refIds = new HashSet<>();
                for (JsonNode target : panel.path("targets")) {
                    if (!refIds.add(target.path("refId").asString(""))) {
                        problems.add(where + ": refId '" + target.path("refId").asString("") + "' missing or twice");
                    }
                    String targetUid = target.path("datasource").path("uid").asString(datasource);
                    if (!datasource.equals(targetUid)) {
                        problems.add(where + " " + target.path("refId").asString("") + " uses datasource " + targetUid);
                    }
                }
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                String uid = variable.path("datasource").path("uid").asString(datasource);
                if (variable.path("type").asString("").equals("query") && !datasource.equals(uid)) {
                    problems.add(file.getFileName() + ": variable " + variable.path("name").asString("")
                            + " uses datasource " + uid);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyMetricOfMetricNamesIsOnAPanelOrInAnAlertOrListedAsNotYet() throws IllegalAccessException {
        Set<String> words = new HashSet<>();
        for (Query query : DashboardQueries.all()) {
            if (!query.where().contains(": variable ")) {
                Matcher word = WORD.matcher(query.expr());
                while (word.find()) {
                    words.add(word.group());
                }
            }
        }
        Set<String> missing = new TreeSet<>();
        Set<String> listedButShown = new TreeSet<>();
        for (Field field : MetricNames.class.getFields()) {
            if (!Modifier.isStatic(field.getModifiers()) || field.getType() != String.class
                    || field.getName().startsWith("TAG_")) {
                continue;
            }
            String name = (String) field.get(null);
            String prometheus = name.replace('.', '_');
            boolean shown = words.stream().anyMatch(word -> word.startsWith(prometheus)
                    && SUFFIX.matcher(word.substring(prometheus.length())).matches());
            if (!shown && !NOT_ON_A_DASHBOARD.contains(name)) {
                missing.add(name);
            }
            if (shown && NOT_ON_A_DASHBOARD.contains(name)) {
                listedButShown.add(name);
            }
        }
        assertThat(missing).as("metrics on no panel and in no alert").isEmpty();
        assertThat(listedButShown).as("metrics listed as not on a dashboard that are").isEmpty();
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
}

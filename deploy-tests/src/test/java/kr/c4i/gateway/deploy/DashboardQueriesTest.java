package kr.c4i.gateway.deploy;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.deploy.DashboardQueries.Query;

/**
 * What DashboardQueries collects from the repository's dashboards and rules, and how it rewrites Grafana's queries
 * and the rules' comparisons, checked without Prometheus. (PrometheusQueries evaluates them against a running one.)
 */
class DashboardQueriesTest {

    /** Per dashboard its panels' targets and query variables; per rule itself and what must return series for it. */
    private static final Map<String, Long> EXPECTED = Map.of("bridge.json", 20L, "dds.json", 14L, "jms.json", 10L,
            "jvm.json", 15L, "wan-gateway.json", 30L, "alerts.yml", 45L);

    private final List<Query> queries = DashboardQueries.all();

    @Test
    void collectsEveryPanelTargetVariableAndRuleOfTheRepository() {
        Map<String, Long> counts = queries.stream().collect(groupingBy(Query::file, TreeMap::new, counting()));
        assertThat(counts).isEqualTo(new TreeMap<>(EXPECTED));
        Set<String> wheres = new HashSet<>();
        queries.forEach(query -> assertThat(wheres.add(query.where())).as("%s named once", query.where()).isTrue());
    }

    @Test
    void everyTargetOfEveryPanelYieldsAnExpression() {
        Set<String> wheres = new HashSet<>();
        queries.forEach(query -> wheres.add(query.where()));
        JsonMapper json = JsonMapper.builder().build();
        List<String> missing = new ArrayList<>();
        for (Path file : DashboardQueries.dashboards()) {
            for (JsonNode panel : DashboardQueries.panels(json.readTree(file.toFile()))) {
                for (JsonNode target : panel.path("targets")) {
                    String where = file.getFileName() + ": panel '" + panel.path("title").asString("") + "' "
                            + target.path("refId").asString("");
                    if (!wheres.contains(where)) {
                        missing.add(where);
                    }
                }
            }
        }
        assertThat(missing).as("targets without an expression").isEmpty();
    }

    @Test
    void everyExpressionParsesAsFarAsAScannerSees() {
        List<String> problems = new ArrayList<>();
        for (Query query : queries) {
            String problem = PromQl.problem(query.expr());
            if (problem != null) {
                problems.add(query.where() + ": " + problem + ": " + query.expr());
            }
        }
        assertThat(problems).isEmpty();
        assertThat(PromQl.problem("sum(rate(x[1m])")).isEqualTo("'(' never closed");
        assertThat(PromQl.problem("x{a=\"b\"}]")).startsWith("']' at 8");
        assertThat(PromQl.problem("x{a=\"$b\"}")).contains("$b");
        assertThat(PromQl.problem("x{a=\"b)")).contains("never closed");
        assertThat(PromQl.problem("x{a=~\"b$|(c\"} # ) and [[")).isNull();
    }

    @Test
    void rulesAreCheckedWithTheirComparisonsAsBool() {
        assertThat(PromQl.seriesChecks("up{job=~\"a|b\"} == 0")).containsExactly("up{job=~\"a|b\"} == bool 0");
        assertThat(PromQl.seriesChecks("sum by (a) (x) > 0.85 * max by (a) (y)"))
                .containsExactly("sum by (a) (x) > bool 0.85 * max by (a) (y)");
        assertThat(PromQl.seriesChecks("x > 100 and deriv(x[10m]) >= 0"))
                .containsExactly("(x > bool 100) and (deriv(x[10m]) >= bool 0)");
        assertThat(PromQl.seriesChecks("x{a!=\"b\"} != 0 AND on (node) (y <= bool 1)"))
                .containsExactly("(x{a!=\"b\"} != bool 0) AND on (node) (y <= bool 1)");
        assertThat(PromQl.seriesChecks("a < 1 or b > 2")).containsExactly("a < bool 1", "b > bool 2");
        assertThat(PromQl.seriesChecks("a > 0 unless on(x) (b == 1 and c)"))
                .containsExactly("a > bool 0", "(b == bool 1) and (c)");
        assertThat(PromQl.seriesChecks("sum(rate(x[5m]) > 0)")).containsExactly("sum(rate(x[5m]) > 0)");

        Query nodeDown = queries.stream().filter(query -> query.where().startsWith("alerts.yml: alert GatewayNodeDown"))
                .filter(Query::needsSeries).findFirst().orElseThrow();
        assertThat(nodeDown.expr()).isEqualTo("up{job=~\"db-bridge|wan-gateway\"} == bool 0");
    }

    @Test
    void grafanasQueriesAndVariablesBecomeWhatPrometheusIsAsked(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("test.json");
        Files.writeString(file, """
                {"time": {"from": "now-6h", "to": "now"},
                 "templating": {"list": [
                   {"name": "node", "type": "query", "query": {"query": "label_values(up{job=\\"db\\"}, node)"}},
                   {"name": "queue", "type": "query", "query": "label_values(x{node=~\\"$node\\"}, queue)",
                    "allValue": ".*"},
                   {"name": "any", "type": "query", "definition": "label_values(instance)"},
                   {"name": "top", "type": "query", "query": "query_result(topk(3, y))"},
                   {"name": "q", "type": "constant", "query": "0.99"},
                   {"name": "step", "type": "interval", "query": "1m,5m", "current": {"value": "5m"}},
                   {"name": "site", "type": "custom", "query": "s1,s2", "current": {"value": "s1"}}]},
                 "panels": [
                   {"type": "timeseries", "title": "Rate", "targets": [
                     {"refId": "A", "expr": "rate(x{node=~\\"${node:regex}\\", queue=~\\"[[queue]]\\"}[$__rate_interval])"},
                     {"refId": "B", "expr": "histogram_quantile($q, rate(y{site=\\"$site\\"}[$step]))"}]},
                   {"type": "row", "title": "Collapsed", "collapsed": true, "panels": [
                     {"type": "stat", "title": "Range", "targets": [
                       {"refId": "A", "expr": "increase(z{node=~\\"$node\\"}[$__range]) / $__range_s"},
                       {"refId": "B", "expr": ""}]}]}]}
                """);
        assertThat(DashboardQueries.dashboard(file)).extracting(Query::where, Query::expr).containsExactly(
                tuple("test.json: panel 'Rate' A", "rate(x{node=~\".+\", queue=~\".*\"}[1m])"),
                tuple("test.json: panel 'Rate' B", "histogram_quantile(0.99, rate(y{site=\"s1\"}[5m]))"),
                tuple("test.json: panel 'Range' A", "increase(z{node=~\".+\"}[6h]) / 21600"),
                tuple("test.json: variable node", "count by (node) (up{job=\"db\", node!=\"\"})"),
                tuple("test.json: variable queue", "count by (queue) (x{node=~\".+\", queue!=\"\"})"),
                tuple("test.json: variable any", "count by (instance) ({instance!=\"\"})"),
                tuple("test.json: variable top", "topk(3, y)"));

        Files.writeString(file, """
                {"templating": {"list": [{"name": "node", "type": "query", "query": "label_values(node)"}]},
                 "panels": [{"title": "Exact", "targets": [{"refId": "A", "expr": "x{node=\\"$node\\"}"}]}]}
                """);
        assertThatThrownBy(() -> DashboardQueries.dashboard(file)).hasMessageContaining("outside a regex matcher");
    }
}

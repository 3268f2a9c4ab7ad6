package kr.c4i.gateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.Test;

/**
 * PrometheusQueries run by hand against a Prometheus that scrapes running services (any with the repository's job
 * names and rule files):
 * {@code mvn -B -pl deploy-tests test -Dtest=DashboardQueriesLive -Dgateway.prometheus.url=http://127.0.0.1:9090}.
 * Its name is no test class name surefire looks for, so the default build never runs it, and never skips it either.
 */
class DashboardQueriesLive {

    @Test
    void everyPanelVariableAndRuleFindsSeries() throws Exception {
        String url = System.getProperty("gateway.prometheus.url", "");
        assertThat(url).as("-Dgateway.prometheus.url, the base URL of a Prometheus scraping the services")
                .isNotBlank();
        assertThat(PrometheusQueries.check(URI.create(url))).as("expressions that fail against " + url).isEmpty();
    }
}

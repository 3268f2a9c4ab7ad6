package kr.c4i.gateway.management.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import kr.c4i.gateway.management.dashboard.DashboardChart.Series;

/** The dashboard endpoint, with the service's charts (its {@link DashboardChart} beans) and the JVM's after them. */
@AutoConfiguration
@ConditionalOnAvailableEndpoint(DashboardEndpoint.class)
public final class DashboardEndpointConfiguration {

    /** Chart.js's bundle in its WebJar, whatever its version. */
    private static final String CHART_JS = "classpath*:META-INF/resources/webjars/chart.js/*/dist/chart.umd.min.js";

    @Bean
    @ConditionalOnMissingBean
    DashboardEndpoint dashboardEndpoint(Environment environment, ObjectProvider<DashboardChart> charts,
            MeterRegistry registry) {
        List<DashboardChart> all = new ArrayList<>(charts.orderedStream().toList());
        all.add(DashboardChart.of("JVM memory used", "bytes", Series.valueBy("", "jvm.memory.used", "area")));
        return new DashboardEndpoint(environment.getProperty("spring.application.name", "gateway"), all, registry,
                chartJs());
    }

    private static Resource chartJs() {
        try {
            Resource[] found = new PathMatchingResourcePatternResolver().getResources(CHART_JS);
            if (found.length == 0) {
                throw new IllegalStateException("Chart.js's WebJar (org.webjars.npm:chart.js) is not on the class path: "
                        + CHART_JS);
            }
            return found[0];
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}

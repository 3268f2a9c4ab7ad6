package kr.c4i.gateway.management.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import kr.c4i.gateway.management.dashboard.DashboardChart.Kind;
import kr.c4i.gateway.management.dashboard.DashboardChart.Series;

/**
 * {@code /actuator/dashboard}: the page; {@code /actuator/dashboard/figures}: the charts' current values as JSON,
 * which the page reads every few seconds; {@code /actuator/dashboard/chart.js} and {@code dashboard.js}: its
 * scripts. An actuator endpoint, so it is on the management listener behind the same credential as the others.
 */
@WebEndpoint(id = "dashboard")
public final class DashboardEndpoint {

    static final MimeType JAVASCRIPT = MimeType.valueOf("text/javascript;charset=UTF-8");

    private static final MimeType HTML = MimeType.valueOf("text/html;charset=UTF-8");

    private final String service;

    private final List<DashboardChart> charts;

    private final MeterRegistry registry;

    private final Resource chartJs;

    /**
     * @param chartJs Chart.js's UMD bundle (from its WebJar)
     */
    public DashboardEndpoint(String service, List<DashboardChart> charts, MeterRegistry registry, Resource chartJs) {
        this.service = service;
        this.charts = List.copyOf(charts);
        this.registry = registry;
        this.chartJs = chartJs;
    }

    @ReadOperation(produces = "text/html")
    public WebEndpointResponse<Resource> page() {
        return new WebEndpointResponse<>(resource("dashboard.html"), WebEndpointResponse.STATUS_OK, HTML);
    }

    @ReadOperation
    public WebEndpointResponse<Object> part(@Selector String part) {
        return switch (part) {
            case "figures" -> new WebEndpointResponse<>(figures(), WebEndpointResponse.STATUS_OK,
                    MimeTypeUtils.APPLICATION_JSON);
            case "chart.js" -> new WebEndpointResponse<>(chartJs, WebEndpointResponse.STATUS_OK, JAVASCRIPT);
            case "dashboard.js" -> new WebEndpointResponse<>(resource("dashboard.js"), WebEndpointResponse.STATUS_OK,
                    JAVASCRIPT);
            default -> new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        };
    }

    /** Every chart's series with its current value, and the time they were read. */
    Map<String, Object> figures() {
        List<Map<String, Object>> chartFigures = new ArrayList<>();
        for (DashboardChart chart : charts) {
            List<Map<String, Object>> lines = new ArrayList<>();
            for (Series series : chart.series()) {
                values(series).forEach((label, value) -> {
                    Map<String, Object> line = new LinkedHashMap<>();
                    line.put("label", label);
                    line.put("kind", series.kind().name().toLowerCase());
                    line.put("value", value);
                    if (series.per() != null) {
                        // The page divides the change of value by the change of this total.
                        line.put("of", value(series.per(), meters(series.per())));
                    }
                    lines.add(line);
                });
            }
            chartFigures.add(Map.of("title", chart.title(), "unit", chart.unit(), "series", lines));
        }
        return Map.of("service", service, "time", registry.config().clock().wallTime(), "charts", chartFigures);
    }

    /** Label to value; one entry, or one per tag value (a split series whose meters do not exist yet has none). */
    private Map<String, @Nullable Double> values(Series series) {
        List<Meter> meters = meters(series);
        Map<String, @Nullable Double> values = new TreeMap<>();
        if (series.splitTag() == null) {
            values.put(series.label(), value(series, meters));
            return values;
        }
        Map<String, List<Meter>> byTag = new TreeMap<>();
        for (Meter meter : meters) {
            String tag = meter.getId().getTag(series.splitTag());
            byTag.computeIfAbsent(tag == null ? "-" : tag, t -> new ArrayList<>()).add(meter);
        }
        byTag.forEach((tag, tagged) -> values.put((series.label() + " " + tag).strip(), value(series, tagged)));
        return values;
    }

    /** The meters of the series' name that have its tags. */
    private List<Meter> meters(Series series) {
        return List.copyOf(registry.find(series.meter()).tags(series.where().entrySet().stream()
                .flatMap(tag -> Stream.of(tag.getKey(), tag.getValue())).toArray(String[]::new)).meters());
    }

    private static @Nullable Double value(Series series, List<Meter> meters) {
        if (series.kind() == Kind.PERCENTILE) {
            Double highest = null;
            for (Meter meter : meters) {
                if (meter instanceof Timer timer) {
                    for (ValueAtPercentile p : timer.takeSnapshot().percentileValues()) {
                        if (p.percentile() == series.percentile()) {
                            double millis = p.value(TimeUnit.MILLISECONDS);
                            highest = highest == null ? millis : Math.max(highest, millis);
                        }
                    }
                }
            }
            return highest;
        }
        if (meters.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (Meter meter : meters) {
            for (Measurement measurement : meter.measure()) {
                Statistic statistic = measurement.getStatistic();
                if (statistic == Statistic.VALUE || statistic == Statistic.COUNT) {
                    sum += measurement.getValue();
                    break;
                }
            }
        }
        // A gauge without a value (a standby's link, a loss not measured yet) is a line without one, not "NaN".
        return Double.isNaN(sum) ? null : sum;
    }

    private static Resource resource(String name) {
        return new ClassPathResource(name, DashboardEndpoint.class);
    }
}

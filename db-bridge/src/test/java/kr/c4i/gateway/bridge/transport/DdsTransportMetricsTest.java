package kr.c4i.gateway.bridge.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/** Dashboards and the scenario harness read these names: every one must come from the one list. */
class DdsTransportMetricsTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @Test
    void everyMeterIsNamedAndTaggedFromMetricNames() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // Never opened: the meters read a stats snapshot of zeros, no participant needed.
        try (DdsTransport transport = new DdsTransport(NodeId.of("a"), CATALOGUE, Set.of(),
                DdsTransportSettings.builder(Duration.ofSeconds(10), 4096).build())) {
            // Kept reachable to the end: the gauges hold it weakly (as Micrometer does), and a collected one reads NaN.
            DdsTransportMetrics metrics = new DdsTransportMetrics(transport, CATALOGUE, registry);

            assertThat(registry.getMeters()).hasSize(16 + CATALOGUE.size());
            Set<String> names = registry.getMeters().stream().map(m -> m.getId().getName())
                    .collect(Collectors.toSet());
            assertThat(constants("")).containsAll(names);
            Set<String> tagKeys = registry.getMeters().stream().flatMap(m -> m.getId().getTags().stream())
                    .map(Tag::getKey).collect(Collectors.toSet());
            assertThat(constants("TAG_")).containsAll(tagKeys);
            for (Meter meter : registry.getMeters()) {
                meter.measure().forEach(m -> assertThat(m.getValue()).as(meter.getId().toString()).isZero());
            }
            Reference.reachabilityFence(metrics);
        }
    }

    /** The values of MetricNames' constants whose names start with the prefix ("" for all). */
    private static Set<String> constants(String prefix) throws IllegalAccessException {
        Set<String> values = new HashSet<>();
        for (Field field : Arrays.stream(MetricNames.class.getFields()).filter(f -> Modifier.isStatic(f.getModifiers())
                && f.getType() == String.class && f.getName().startsWith(prefix)).toList()) {
            values.add((String) field.get(null));
        }
        return values;
    }
}

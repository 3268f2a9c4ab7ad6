package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import kr.c4i.gateway.core.NodeId;

/** The soak's plot is an SVG document of its own making: well-formed, a chart and one polyline per metric. */
class SoakPlotTest {

    private static final List<SoakMetric> METRICS = SoakMetric.all(List.of(NodeId.of("a"), NodeId.of("b")));

    @Test
    void everyMetricHasOnePolylineWithAPointPerSampleItWasReadIn() throws Exception {
        List<SoakSample> samples = new ArrayList<>();
        for (int minute = 0; minute <= 6; minute++) {
            Map<String, Double> values = new HashMap<>();
            for (SoakMetric metric : METRICS) {
                values.put(metric.column(), 10.0 * minute + 1);
            }
            if (minute == 0) {
                // no arrivals yet: no latency in the first sample
                values.remove(SoakMetric.LATENCY_P99.column());
            }
            samples.add(new SoakSample(Duration.ofMinutes(minute), Instant.EPOCH.plusSeconds(60L * minute), values));
        }
        Document svg = parse(SoakPlot.svg("soak over jms & dds <short>", METRICS, samples, Duration.ofMinutes(1)));

        assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
        NodeList lines = svg.getElementsByTagName("polyline");
        assertThat(lines.getLength()).isEqualTo(METRICS.size());
        for (int i = 0; i < lines.getLength(); i++) {
            String points = ((Element) lines.item(i)).getAttribute("points");
            int expected = METRICS.get(i) == SoakMetric.LATENCY_P99 ? 6 : 7;
            assertThat(points.split(" ")).as(METRICS.get(i).column()).hasSize(expected)
                    .allMatch(point -> point.matches("\\d+\\.\\d,\\d+\\.\\d"));
        }
        assertThat(svg.getDocumentElement().getTextContent()).contains("soak over jms & dds <short>",
                SoakMetric.JVM_RSS.label(), "6 min");
        long judged = METRICS.stream().filter(SoakMetric::judged).count();
        assertThat(svg.getElementsByTagName("line").getLength()).as("a baseline marker per judged chart")
                .isEqualTo((int) judged);
    }

    @Test
    void noSamplesYetIsStillAWellFormedPlotOfEmptyCharts() throws Exception {
        Document svg = parse(SoakPlot.svg("starting", METRICS, List.of(), Duration.ofMinutes(10)));
        assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(METRICS.size());
    }

    @Test
    void aFlatSeriesIsDrawnInsideItsChart() throws Exception {
        List<SoakSample> samples = List.of(
                new SoakSample(Duration.ZERO, Instant.EPOCH, Map.of(SoakMetric.JVM_THREADS.column(), 0.0)),
                new SoakSample(Duration.ofMinutes(1), Instant.EPOCH.plusSeconds(60),
                        Map.of(SoakMetric.JVM_THREADS.column(), 0.0)));
        Document svg = parse(SoakPlot.svg("flat", List.of(SoakMetric.JVM_THREADS), samples, Duration.ofSeconds(10)));
        String points = ((Element) svg.getElementsByTagName("polyline").item(0)).getAttribute("points");
        assertThat(points).doesNotContain("NaN", "Infinity");
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }
}

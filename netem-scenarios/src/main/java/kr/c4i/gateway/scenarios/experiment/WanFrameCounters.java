package kr.c4i.gateway.scenarios.experiment;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * What WAN gateways counted of the DATA frames they sent, as their {@code /actuator/prometheus} shows it: the bytes
 * of the messages those frames carried before compression ({@code gateway.wan.payload.bytes}, direction
 * {@code sent}: each message's encoded header fields and body) and the frames' own bytes after
 * ({@code gateway.wan.bytes}, direction {@code sent}, kind {@code data}: frame headers included, as handed to the
 * link before sealing). The difference of two readings around a cell, over both gateways, gives the cell's
 * compression ratio as the gateways achieved it.
 *
 * @param payloadBytes bytes of the messages before compression
 * @param frameBytes bytes of the DATA frames
 */
public record WanFrameCounters(double payloadBytes, double frameBytes) {

    public static final WanFrameCounters ZERO = new WanFrameCounters(0, 0);

    /** The Prometheus name of {@link MetricNames#WAN_PAYLOAD_BYTES}: a counter, whose name ends in its unit. */
    static final String PAYLOAD = prometheusCounter(MetricNames.WAN_PAYLOAD_BYTES);
    /** The Prometheus name of {@link MetricNames#WAN_BYTES}. */
    static final String FRAMES = prometheusCounter(MetricNames.WAN_BYTES);

    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+).*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * The counters in a Prometheus text exposition (version 0.0.4, as the actuator answers): every series of the
     * two names with those tags, summed over the peer sites. Absent series count 0 (a gateway that sent no DATA
     * frame yet has none).
     *
     * @throws IllegalArgumentException if a sample of the two names has no number for a value
     */
    public static WanFrameCounters parse(String exposition) {
        double payload = 0;
        double frames = 0;
        for (String line : exposition.lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line.strip());
            if (!sample.matches()) {
                continue;
            }
            String name = sample.group(1);
            if (!name.equals(PAYLOAD) && !name.equals(FRAMES)) {
                continue;
            }
            Map<String, String> labels = labels(sample.group(2));
            double value;
            try {
                value = Double.parseDouble(sample.group(3));
            }
            catch (NumberFormatException ex) {
                throw new IllegalArgumentException("Not a number in the sample '" + line + "'", ex);
            }
            if (!"sent".equals(labels.get(MetricNames.TAG_DIRECTION))) {
                continue;
            }
            if (name.equals(PAYLOAD)) {
                payload += value;
            }
            else if ("data".equals(labels.get(MetricNames.TAG_KIND))) {
                frames += value;
            }
        }
        return new WanFrameCounters(payload, frames);
    }

    public WanFrameCounters plus(WanFrameCounters other) {
        return new WanFrameCounters(payloadBytes + other.payloadBytes, frameBytes + other.frameBytes);
    }

    /** What was counted since {@code before}. */
    public WanFrameCounters minus(WanFrameCounters before) {
        return new WanFrameCounters(payloadBytes - before.payloadBytes, frameBytes - before.frameBytes);
    }

    /**
     * Bytes after compression over bytes before: the DATA frames' over their messages'; empty when no message was
     * counted, or a counter went back (a gateway restarted between the readings).
     */
    public OptionalDouble ratio() {
        if (payloadBytes <= 0 || frameBytes < 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(frameBytes / payloadBytes);
    }

    /** Micrometer's Prometheus name of a counter whose base unit ends its name already: dots to underscores, _total. */
    static String prometheusCounter(String meter) {
        return meter.replace('.', '_') + "_total";
    }

    private static Map<String, String> labels(@Nullable String text) {
        Map<String, String> labels = new TreeMap<>();
        if (text != null) {
            Matcher label = LABEL.matcher(text);
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        return labels;
    }
}

package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A soak's samples as one SVG image, written by hand so that the command needs no plotting tool: a small line chart
 * per metric (one polyline each) on a grid, time in minutes across, the scale from zero up so that growth looks as
 * large as it is, and a dashed line where the verdict's baseline is due on the charts the verdict judges.
 */
final class SoakPlot {

    private static final int COLUMNS = 3;
    private static final int CHART_WIDTH = 360;
    private static final int CHART_HEIGHT = 170;
    private static final int LEFT = 56;
    private static final int RIGHT = 12;
    private static final int TOP = 26;
    private static final int BOTTOM = 26;
    private static final int HEADER = 46;

    private SoakPlot() {
    }

    /**
     * @param title the image's heading, e.g. the transport and the run's options
     * @param baselineAt when the verdict's baseline is due
     */
    static String svg(String title, List<SoakMetric> metrics, List<SoakSample> samples, Duration baselineAt) {
        int rows = (metrics.size() + COLUMNS - 1) / COLUMNS;
        int width = COLUMNS * CHART_WIDTH;
        int height = HEADER + rows * CHART_HEIGHT;
        double lastMinute = samples.isEmpty() ? 0 : minutes(samples.getLast().elapsed());
        StringBuilder svg = new StringBuilder();
        svg.append(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(format("<text x=\"8\" y=\"20\" font-size=\"14\">%s</text>%n", escape(title)));
        svg.append(format("<text x=\"8\" y=\"36\">Minutes since the load started across; the dashed line is where "
                + "the verdict's baseline is due on the figures it judges.</text>%n"));
        for (int i = 0; i < metrics.size(); i++) {
            chart(svg, metrics.get(i), samples, baselineAt, lastMinute, (i % COLUMNS) * CHART_WIDTH,
                    HEADER + (i / COLUMNS) * CHART_HEIGHT);
        }
        return svg.append("</svg>\n").toString();
    }

    private static void chart(StringBuilder svg, SoakMetric metric, List<SoakSample> samples, Duration baselineAt,
            double lastMinute, int x0, int y0) {
        int plotWidth = CHART_WIDTH - LEFT - RIGHT;
        int plotHeight = CHART_HEIGHT - TOP - BOTTOM;
        int left = x0 + LEFT;
        int top = y0 + TOP;
        int bottom = top + plotHeight;
        double max = samples.stream().mapToDouble(s -> s.value(metric)).filter(Double::isFinite).max().orElse(0);
        double min = Math.min(0, samples.stream().mapToDouble(s -> s.value(metric)).filter(Double::isFinite).min()
                .orElse(0));
        double ceiling = max > min ? max + (max - min) * 0.05 : min + 1;
        double span = Math.max(lastMinute, 1e-9);

        svg.append(format("<g><text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0 + 8, y0 + 16,
                escape(metric.label())));
        svg.append(format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n", left,
                top, plotWidth, plotHeight));
        svg.append(format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 4, top + 4,
                number(ceiling)));
        svg.append(format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 4, bottom, number(min)));
        svg.append(format("<text x=\"%d\" y=\"%d\">0</text>%n", left, bottom + 14));
        svg.append(format("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s min</text>%n", left + plotWidth,
                bottom + 14, number(lastMinute)));
        double baseline = minutes(baselineAt);
        if (metric.judged() && baseline <= lastMinute) {
            double x = left + plotWidth * baseline / span;
            svg.append(format("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c60\" "
                    + "stroke-dasharray=\"4 3\"/>%n", x, top, x, bottom));
        }
        List<String> points = new ArrayList<>();
        for (SoakSample sample : samples) {
            double value = sample.value(metric);
            if (Double.isFinite(value)) {
                double x = left + plotWidth * minutes(sample.elapsed()) / span;
                double y = bottom - plotHeight * (value - min) / (ceiling - min);
                points.add(format("%.1f,%.1f", x, y));
            }
        }
        svg.append(format("<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"%s\"/></g>%n",
                String.join(" ", points)));
    }

    private static double minutes(Duration elapsed) {
        return elapsed.toMillis() / 60_000.0;
    }

    /** Whole numbers, but a tenth below 10. */
    private static String number(double value) {
        return Math.abs(value) < 10 && value != Math.rint(value) ? format("%.1f", value) : format("%.0f", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String format(String format, Object... arguments) {
        return String.format(Locale.ROOT, format, arguments);
    }
}

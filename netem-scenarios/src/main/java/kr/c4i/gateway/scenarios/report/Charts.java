package kr.c4i.gateway.scenarios.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

import kr.c4i.gateway.scenarios.experiment.CellKeys;
import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.report.StudyFigures.Figure;

/**
 * Charts like the study's Figures 7-9, drawn with JFreeChart and written as PNG and as SVG (JFreeSVG). Study
 * values are light, ours dark; JMS blue, DDS orange.
 */
public final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    private static final Color JMS_STUDY = new Color(0x9ecae1);
    private static final Color JMS_OURS = new Color(0x08519c);
    private static final Color DDS_STUDY = new Color(0xfdae6b);
    private static final Color DDS_OURS = new Color(0xa63603);
    private static final List<Color> PALETTE = List.of(JMS_STUDY, JMS_OURS, DDS_STUDY, DDS_OURS);

    private Charts() {
    }

    /**
     * Writes the charts the run has data for.
     *
     * @return the written PNG file names by figure label (7, 8, 8b, 9)
     */
    public static Map<String, String> write(RunResult run, Path dir) throws IOException {
        Map<String, String> written = new LinkedHashMap<>();
        if (run.plan().runs(ExperimentKind.RECOVERY)) {
            save(recovery(run), dir, "figure7-recovery");
            written.put("7", "figure7-recovery.png");
        }
        if (run.plan().runs(ExperimentKind.FANOUT)) {
            save(bandwidth(run), dir, "figure8-bandwidth");
            written.put("8", "figure8-bandwidth.png");
            save(wireBytes(run), dir, "figure8b-wire-bytes");
            written.put("8b", "figure8b-wire-bytes.png");
        }
        if (run.plan().runs(ExperimentKind.LOSS)) {
            save(loss(run), dir, "figure9-loss");
            written.put("9", "figure9-loss.png");
        }
        return written;
    }

    /** Figure 7: response time on recovery, study and ours, log scale. */
    static JFreeChart recovery(RunResult run) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String t : List.of("jms", "dds")) {
            String label = t.equals("jms") ? "TCP (JMS)" : "DDS";
            add(data, StudyFigures.recovery(t).mean(), series(t, true), label);
            add(data, Cells.stats(run, ExperimentKind.RECOVERY, t, CellKeys.RECOVERY, Metrics.RESPONSE_MS).mean(),
                    series(t, false), label);
        }
        JFreeChart chart = ChartFactory.createBarChart("Figure 7: response time when a node recovers", null,
                "response time (ms, log scale)", data, PlotOrientation.VERTICAL, true, false, false);
        style(chart, true);
        return chart;
    }

    /** Figure 8: bandwidth against the number of subscribers. */
    static JFreeChart bandwidth(RunResult run) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String t : List.of("jms", "dds")) {
            XYSeries study = new XYSeries(series(t, true));
            XYSeries ours = new XYSeries(series(t, false));
            for (int n : run.plan().subscribers()) {
                Figure figure = StudyFigures.bandwidth(t, n);
                if (figure != null) {
                    study.add(n, figure.mean());
                }
                double mean = Cells.stats(run, ExperimentKind.FANOUT, t, CellKeys.fanOut(n), Metrics.BIT_RATE).mean();
                if (!Double.isNaN(mean)) {
                    ours.add(n, mean);
                }
            }
            data.addSeries(study);
            data.addSeries(ours);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Figure 8: bandwidth used, 1 publisher to N subscribers",
                "subscribers (N)", "bit/s", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < PALETTE.size(); i++) {
            renderer.setSeriesPaint(i, PALETTE.get(i));
            renderer.setSeriesStroke(i, new BasicStroke(i % 2 == 0 ? 1.5f : 3f));
        }
        plot.setRenderer(renderer);
        styleOverN(chart);
        return chart;
    }

    /** Figure 8b (not in the study): what the publisher's host put on the wire against N. */
    static JFreeChart wireBytes(RunResult run) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (String t : List.of("jms", "dds")) {
            XYSeries ours = new XYSeries(series(t, false));
            for (int n : run.plan().subscribers()) {
                double mean = Cells.stats(run, ExperimentKind.FANOUT, t, CellKeys.fanOut(n), Metrics.WIRE_BYTES).mean();
                if (!Double.isNaN(mean)) {
                    ours.add(n, mean);
                }
            }
            data.addSeries(ours);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Figure 8b: bytes the publisher put on the wire, "
                + Fmt.whole(run.plan().fanOutMessages()) + " messages", "subscribers (N)", "bytes", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setSeriesPaint(0, JMS_OURS);
        renderer.setSeriesPaint(1, DDS_OURS);
        renderer.setSeriesStroke(0, new BasicStroke(3f));
        renderer.setSeriesStroke(1, new BasicStroke(3f));
        plot.setRenderer(renderer);
        styleOverN(chart);
        return chart;
    }

    /** Figure 9: messages per second under loss, per cell, log scale. */
    static JFreeChart loss(RunResult run) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (LossCell cell : run.plan().lossCells()) {
            for (String t : List.of("jms", "dds")) {
                Figure study = StudyFigures.loss(t, cell.loss(), cell.rate().bitsPerSecond());
                add(data, study == null ? Double.NaN : study.mean(), series(t, true), cell.key());
                add(data, Cells.stats(run, ExperimentKind.LOSS, t, cell.key(), Metrics.MSG_PER_S).mean(),
                        series(t, false), cell.key());
            }
        }
        JFreeChart chart = ChartFactory.createBarChart("Figure 9: messages per second under packet loss", null,
                "messages per second (log scale)", data, PlotOrientation.VERTICAL, true, false, false);
        style(chart, true);
        chart.getCategoryPlot().getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.STANDARD);
        return chart;
    }

    static void save(JFreeChart chart, Path dir, String name) throws IOException {
        ChartUtils.saveChartAsPNG(dir.resolve(name + ".png").toFile(), chart, WIDTH, HEIGHT);
        SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(svg, new Rectangle(0, 0, WIDTH, HEIGHT));
        SVGUtils.writeToSVG(dir.resolve(name + ".svg").toFile(), svg.getSVGElement());
    }

    private static String series(String transport, boolean study) {
        return (transport.equals("jms") ? "JMS" : "DDS") + (study ? " (study)" : " (ours)");
    }

    /** Adds a bar; a missing or non-positive value (nothing to show on a log axis) leaves a gap. */
    private static void add(DefaultCategoryDataset data, double value, String series, String category) {
        data.addValue(Double.isNaN(value) || value <= 0 ? null : value, series, category);
    }

    private static void style(JFreeChart chart, boolean log) {
        styleCommon(chart);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        if (log) {
            // Decades labelled as plain numbers (10, 100, 1,000), nine minor ticks between, data-only range.
            LogAxis axis = new LogAxis(plot.getRangeAxis().getLabel());
            axis.setBase(10);
            axis.setSmallestValue(1);
            axis.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.##"));
            axis.setAutoTickUnitSelection(false);
            axis.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(1));
            axis.setMinorTickCount(9);
            axis.setMinorTickMarksVisible(true);
            plot.setRangeAxis(axis);
            renderer.setIncludeBaseInRange(false);
            double min = Double.POSITIVE_INFINITY;
            double max = 0;
            var data = plot.getDataset();
            for (int r = 0; r < data.getRowCount(); r++) {
                for (int c = 0; c < data.getColumnCount(); c++) {
                    Number v = data.getValue(r, c);
                    if (v != null && v.doubleValue() > 0) {
                        min = Math.min(min, v.doubleValue());
                        max = Math.max(max, v.doubleValue());
                    }
                }
            }
            if (max > 0) {
                axis.setRange(Math.pow(10, Math.floor(Math.log10(min))), Math.pow(10, Math.ceil(Math.log10(max * 1.05))));
            }
        }
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.05);
        for (int i = 0; i < PALETTE.size(); i++) {
            renderer.setSeriesPaint(i, PALETTE.get(i));
        }
    }

    /** The line charts over N: whole subscriber counts on the x axis, a grid both ways. */
    private static void styleOverN(JFreeChart chart) {
        styleCommon(chart);
        XYPlot plot = chart.getXYPlot();
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    }

    private static void styleCommon(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getPlot().setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    }
}

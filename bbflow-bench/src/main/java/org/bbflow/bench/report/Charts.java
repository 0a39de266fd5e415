package org.bbflow.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of {@link org.bbflow.bench.Report}, drawn with XChart. Categories (implementations,
 * strategies, worker counts) are bars, never points joined by lines; measured values carry their
 * error bars; every image has a caption naming the machine, the JDK and the date of the run.
 */
public final class Charts {
    private static final int W = 900;
    private static final int H = 520;
    private static final int CAPTION_LINE = 17;
    private final String caption;

    /**
     * Charts captioned with {@code caption}.
     *
     * @param caption drawn under every chart, e.g. machine, JDK and date of the run; {@code \n} breaks lines
     */
    public Charts(String caption) {
        this.caption = caption;
    }

    /**
     * A bar chart: categories on x, one bar series per entry of {@code series}, with error bars.
     *
     * @param file the PNG to write
     * @param title the chart's title
     * @param yTitle the value axis' title
     * @param categories the categories, in order
     * @param series series name to values aligned with {@code categories} (NaN: no bar)
     * @param errors series name to error half-widths aligned with {@code categories} (NaN: none); may lack a series
     * @throws IOException if the file cannot be written
     */
    public void bars(Path file, String title, String yTitle, List<String> categories, Map<String, List<Double>> series,
                     Map<String, List<Double>> errors) throws IOException {
        CategoryChart c = categoryChart(title, yTitle, categories.size(), series.size());
        startAtZeroUnlessAnErrorReachesBelow(c, series, errors);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<Double> err = errors.get(e.getKey());
            if (err == null) {
                c.addSeries(e.getKey(), categories, zeroForNaN(e.getValue()));
            } else {
                c.addSeries(e.getKey(), categories, zeroForNaN(e.getValue()), zeroForNaN(err));
            }
        }
        save(c, file);
    }

    /**
     * Points per category on a logarithmic value axis (bars cannot start at 0 there): one marker
     * series per entry of {@code series}, markers only, never lines between categories.
     *
     * @param file the PNG to write
     * @param title the chart's title
     * @param yTitle the value axis' title
     * @param categories the categories, in order
     * @param series series name to values aligned with {@code categories}
     * @throws IOException if the file cannot be written
     */
    public void logPoints(Path file, String title, String yTitle, List<String> categories,
                          Map<String, List<Double>> series) throws IOException {
        CategoryChart c = categoryChart(title, yTitle, categories.size(), series.size());
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(10);
        c.getStyler().setLegendVisible(true);
        double min = series.values().stream().flatMap(List::stream).filter(v -> v > 0).mapToDouble(v -> v)
                .min().orElse(1);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            // a log axis cannot show 0 or NaN: such points sit at the axis' floor
            c.addSeries(e.getKey(), categories, e.getValue().stream()
                    .map(v -> Double.isNaN(v) || v <= 0 ? min / 10 : v).toList());
        }
        save(c, file);
    }

    /**
     * Speedup against a worker or stage count: bars per series over the counts as categories (so
     * the axis shows whole numbers only), with error bars, and the ideal speedup as markers.
     *
     * @param file the PNG to write
     * @param title the chart's title
     * @param xTitle the count axis' title
     * @param counts the worker or stage counts, ascending
     * @param speedups series name to speedups aligned with {@code counts} (NaN: not measured)
     * @param errors series name to error half-widths aligned with {@code counts}
     * @param ideal the ideal speedup at each count, drawn as markers; null for none
     * @param idealName the ideal series' legend entry
     * @throws IOException if the file cannot be written
     */
    public void speedup(Path file, String title, String xTitle, List<Integer> counts, Map<String, List<Double>> speedups,
                        Map<String, List<Double>> errors, List<Double> ideal, String idealName) throws IOException {
        List<String> categories = counts.stream().map(String::valueOf).toList();
        CategoryChart c = categoryChart(title, "speedup", categories.size(), speedups.size() + 1);
        c.setXAxisTitle(xTitle);
        c.getStyler().setXAxisLabelRotation(0);
        startAtZeroUnlessAnErrorReachesBelow(c, speedups, errors);
        c.getStyler().setLegendVisible(true);
        for (Map.Entry<String, List<Double>> e : speedups.entrySet()) {
            List<Double> err = errors.getOrDefault(e.getKey(), nanList(counts.size()));
            c.addSeries(e.getKey(), categories, zeroForNaN(e.getValue()), zeroForNaN(err));
        }
        if (ideal != null) {
            CategorySeries s = c.addSeries(idealName, categories, ideal);
            s.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.DIAMOND);
            s.setMarkerColor(Color.DARK_GRAY);
            s.setFillColor(Color.DARK_GRAY);
        }
        save(c, file);
    }

    /**
     * A line chart over a numeric x axis (each series one implementation measured at several sizes),
     * with error bars on a linear value axis.
     *
     * @param file the PNG to write
     * @param title the chart's title
     * @param xTitle the x axis' title
     * @param yTitle the y axis' title
     * @param series series name to {x[], y[], error[]} (the error row may be absent)
     * @param logX logarithmic x axis
     * @param logY logarithmic y axis (error bars are left out there: XChart cannot draw one reaching below 0)
     * @throws IOException if the file cannot be written
     */
    public void lines(Path file, String title, String xTitle, String yTitle, Map<String, double[][]> series,
                      boolean logX, boolean logY) throws IOException {
        XYChart c = new XYChartBuilder().width(W).height(H).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisLogarithmic(logX);
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setErrorBarsColorSeriesColor(true);
        boolean belowZero = series.values().stream().anyMatch(xy -> {
            for (int i = 0; xy.length > 2 && i < xy[1].length; i++) {
                if (xy[1][i] - xy[2][i] < 0) {
                    return true;
                }
            }
            return false;
        });
        if (!logY && !belowZero) {
            c.getStyler().setYAxisMin(0.0);
        }
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            double[][] xy = e.getValue();
            if (xy[0].length == 0) {
                continue;
            }
            XYSeries s = !logY && xy.length > 2 ? c.addSeries(e.getKey(), xy[0], xy[1], noNaN(xy[2]))
                    : c.addSeries(e.getKey(), xy[0], xy[1]);
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        save(c, file);
    }

    private static CategoryChart categoryChart(String title, String yTitle, int categories, int series) {
        CategoryChart c = new CategoryChartBuilder().width(W).height(H).title(title).xAxisTitle("").yAxisTitle(yTitle)
                .build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setLegendVisible(series > 1);
        c.getStyler().setXAxisLabelRotation(categories > 5 ? 30 : 0);
        c.getStyler().setLabelsVisible(false);
        c.getStyler().setErrorBarsColor(Color.BLACK);
        c.getStyler().setErrorBarsColorSeriesColor(false);
        return c;
    }

    /**
     * JMH's intervals are symmetric (mean ± t · standard error); when an error exceeds its value the
     * interval reaches below zero, and the axis is left to extend there so the whole bar shows (the
     * measurement is then not significant). Otherwise the axis starts at zero.
     */
    private static void startAtZeroUnlessAnErrorReachesBelow(CategoryChart c, Map<String, List<Double>> values,
                                                             Map<String, List<Double>> errors) {
        for (Map.Entry<String, List<Double>> e : values.entrySet()) {
            List<Double> err = errors.get(e.getKey());
            for (int i = 0; err != null && i < e.getValue().size(); i++) {
                if (e.getValue().get(i) - err.get(i) < 0) {
                    return;
                }
            }
        }
        c.getStyler().setYAxisMin(0.0);
    }

    private static List<Double> zeroForNaN(List<Double> v) {
        // XChart cannot draw a NaN bar or error bar
        return v.stream().map(x -> Double.isNaN(x) ? 0.0 : x).toList();
    }

    private static double[] noNaN(double[] v) {
        double[] a = v.clone();
        for (int i = 0; i < a.length; i++) {
            if (Double.isNaN(a[i])) {
                a[i] = 0;
            }
        }
        return a;
    }

    private static List<Double> nanList(int n) {
        List<Double> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(Double.NaN);
        }
        return l;
    }

    /** Draws the chart, then the caption lines under it, into one PNG. */
    private void save(Chart<?, ?> chart, Path file) throws IOException {
        BufferedImage plot = BitmapEncoder.getBufferedImage(chart);
        String[] lines = caption.split("\n");
        int captionHeight = CAPTION_LINE * lines.length + 8;
        BufferedImage image = new BufferedImage(plot.getWidth(), plot.getHeight() + captionHeight,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            g.drawImage(plot, 0, 0, null);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.DARK_GRAY);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            for (int i = 0; i < lines.length; i++) {
                g.drawString(lines[i], 10, plot.getHeight() + CAPTION_LINE * (i + 1));
            }
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer for " + file);
        }
    }
}

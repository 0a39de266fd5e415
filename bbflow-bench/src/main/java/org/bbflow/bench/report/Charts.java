package org.bbflow.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts of {@link org.bbflow.bench.Report}, drawn with XChart. */
public final class Charts {
    private static final int W = 900;
    private static final int H = 520;

    private Charts() {
    }

    /** A bar chart: categories on x, one bar series per entry of {@code series} (values aligned with categories). */
    public static void bars(Path file, String title, String yTitle, List<String> categories, Map<String, List<Double>> series,
                     boolean logY) throws IOException {
        CategoryChart c = new CategoryChartBuilder().width(W).height(H).title(title).xAxisTitle("").yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setLegendVisible(series.size() > 1);
        c.getStyler().setXAxisLabelRotation(categories.size() > 5 ? 30 : 0);
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setLabelsVisible(false);
        if (logY) {
            // XChart draws bars from 0, which a log axis cannot show: use markers and lines instead
            c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        }
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            c.addSeries(e.getKey(), categories, clean(e.getValue(), logY));
        }
        save(c, file);
    }

    /** A line chart with one series per entry (x values shared). */
    public static void lines(Path file, String title, String xTitle, String yTitle, Map<String, double[][]> series,
                      boolean logX, boolean logY) throws IOException {
        XYChart c = new XYChartBuilder().width(W).height(H).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setXAxisLogarithmic(logX);
        c.getStyler().setYAxisLogarithmic(logY);
        if (!logY) {
            c.getStyler().setYAxisMin(0.0);
        }
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            double[][] xy = e.getValue();
            if (xy[0].length == 0) {
                continue;
            }
            XYSeries s = c.addSeries(e.getKey(), xy[0], xy[1]);
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        save(c, file);
    }

    private static List<Double> clean(List<Double> v, boolean logY) {
        // XChart cannot draw NaN bars; a log axis cannot draw 0
        return v.stream().map(x -> Double.isNaN(x) || (logY && x <= 0) ? (logY ? 1e-3 : 0.0) : x).toList();
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> c, Path file) throws IOException {
        String name = file.toString();
        if (name.endsWith(".png")) {
            name = name.substring(0, name.length() - 4);
        }
        BitmapEncoder.saveBitmap(c, name, BitmapEncoder.BitmapFormat.PNG);
    }
}

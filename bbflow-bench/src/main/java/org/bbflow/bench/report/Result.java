package org.bbflow.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One JMH result row (one benchmark method with one set of parameters), as read from the JSON. */
public final class Result {
    /** Fully qualified benchmark method, e.g. {@code org.bbflow.bench.flow.FarmBench.farm}. */
    public final String benchmark;
    /** Simple class name, e.g. {@code FarmBench}. */
    public final String bench;
    /** JMH mode ({@code thrpt}, {@code avgt}, {@code sample}, {@code ss}). */
    public final String mode;
    /** Parameters. */
    public final Map<String, String> params;
    /** Primary score and its 99.9 % confidence half-width (NaN when unknown). */
    public final double score;
    /** Confidence half-width of the primary score (NaN with a single iteration). */
    public final double error;
    /** Unit of the primary score. */
    public final String unit;
    /** Percentiles of the primary score (SampleTime), keyed by percentile (50.0, 99.0...). */
    public final Map<Double, Double> percentiles = new TreeMap<>();
    /** Secondary metrics: name to {score, error}. */
    public final Map<String, double[]> secondary = new LinkedHashMap<>();
    /** Measurement iterations x forks actually run. */
    public final String runs;
    /** The JMH version that produced the row. */
    public final String jmhVersion;

    @SuppressWarnings("unchecked")
    Result(Map<String, Object> m) {
        benchmark = (String) m.get("benchmark");
        String[] parts = benchmark.split("\\.");
        bench = parts.length >= 2 ? parts[parts.length - 2] : benchmark;
        mode = (String) m.get("mode");
        Map<String, String> p = new TreeMap<>();
        Object ps = m.get("params");
        if (ps instanceof Map) {
            ((Map<String, Object>) ps).forEach((k, v) -> p.put(k, String.valueOf(v)));
        }
        params = p;
        Map<String, Object> pm = (Map<String, Object>) m.get("primaryMetric");
        score = num(pm.get("score"));
        error = num(pm.get("scoreError"));
        unit = (String) pm.get("scoreUnit");
        Object pct = pm.get("scorePercentiles");
        if (pct instanceof Map) {
            ((Map<String, Object>) pct).forEach((k, v) -> percentiles.put(Double.parseDouble(k), num(v)));
        }
        Object sm = m.get("secondaryMetrics");
        if (sm instanceof Map) {
            ((Map<String, Object>) sm).forEach((k, v) -> {
                Map<String, Object> x = (Map<String, Object>) v;
                secondary.put(k, new double[] {num(x.get("score")), num(x.get("scoreError"))});
            });
        }
        runs = fmtInt(m.get("measurementIterations")) + "x" + fmtInt(m.get("forks"));
        jmhVersion = String.valueOf(m.get("jmhVersion"));
    }

    private static String fmtInt(Object o) {
        return o instanceof Double ? Integer.toString(((Double) o).intValue()) : String.valueOf(o);
    }

    static double num(Object o) {
        if (o instanceof Double) {
            return (Double) o;
        }
        if (o instanceof String) {
            try {
                return Double.parseDouble((String) o);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }

    /** A parameter, or null. */
    public String p(String name) {
        return params.get(name);
    }

    /** A secondary metric whose name ends with {@code suffix}, or null. */
    public double[] secondary(String suffix) {
        for (Map.Entry<String, double[]> e : secondary.entrySet()) {
            if (e.getKey().endsWith(suffix)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Parses a JMH JSON result file's content. */
    @SuppressWarnings("unchecked")
    public static List<Result> parseAll(String json) {
        Object root = Json.parse(json);
        if (!(root instanceof List)) {
            throw new IllegalArgumentException("not a JMH JSON result file (no top-level array)");
        }
        return ((List<Object>) root).stream().map(o -> new Result((Map<String, Object>) o)).toList();
    }
}

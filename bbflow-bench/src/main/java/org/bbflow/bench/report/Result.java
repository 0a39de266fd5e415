package org.bbflow.bench.report;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
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

    Result(JsonObject m) {
        benchmark = m.get("benchmark").getAsString();
        String[] parts = benchmark.split("\\.");
        bench = parts.length >= 2 ? parts[parts.length - 2] : benchmark;
        mode = text(m, "mode");
        Map<String, String> p = new TreeMap<>();
        if (m.get("params") instanceof JsonObject ps) {
            ps.entrySet().forEach(e -> p.put(e.getKey(), e.getValue().getAsString()));
        }
        params = p;
        JsonObject pm = m.getAsJsonObject("primaryMetric");
        score = num(pm.get("score"));
        error = num(pm.get("scoreError"));
        unit = text(pm, "scoreUnit");
        if (pm.get("scorePercentiles") instanceof JsonObject pct) {
            pct.entrySet().forEach(e -> percentiles.put(Double.parseDouble(e.getKey()), num(e.getValue())));
        }
        if (m.get("secondaryMetrics") instanceof JsonObject sm) {
            sm.entrySet().forEach(e -> {
                JsonObject x = e.getValue().getAsJsonObject();
                secondary.put(e.getKey(), new double[] {num(x.get("score")), num(x.get("scoreError"))});
            });
        }
        runs = text(m, "measurementIterations") + "x" + text(m, "forks");
        jmhVersion = text(m, "jmhVersion");
    }

    private static String text(JsonObject o, String name) {
        JsonElement e = o.get(name);
        return e == null || e.isJsonNull() ? "?" : e.getAsString();
    }

    /** A JSON number, or JMH's {@code "NaN"} string (a score without an error), as a double. */
    static double num(JsonElement e) {
        if (e instanceof JsonPrimitive p && (p.isNumber() || p.isString())) {
            try {
                return p.getAsDouble();
            } catch (NumberFormatException x) {
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

    /**
     * Parses a JMH JSON result file's content ({@code -rf json}) with Gson.
     *
     * @param json the file's text
     * @return one result per benchmark method and parameter set, in file order
     * @throws IllegalArgumentException if the text is not JSON or not a JMH result array
     */
    public static List<Result> parseAll(String json) {
        JsonElement root;
        try {
            root = JsonParser.parseString(json);
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (!root.isJsonArray()) {
            throw new IllegalArgumentException("not a JMH JSON result file (no top-level array)");
        }
        List<Result> results = new ArrayList<>();
        for (JsonElement e : root.getAsJsonArray()) {
            if (!(e instanceof JsonObject o) || !o.has("benchmark") || !(o.get("primaryMetric") instanceof JsonObject)) {
                throw new IllegalArgumentException("not a JMH result row: " + e);
            }
            results.add(new Result(o));
        }
        return results;
    }
}

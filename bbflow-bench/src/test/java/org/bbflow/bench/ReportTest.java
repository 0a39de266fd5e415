package org.bbflow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.bbflow.bench.report.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The report read from a recorded JMH JSON file (a subset of a real run, raw samples left out). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReportTest {
    private static final String FIXTURE = "jmh-result.json";

    @TempDir
    Path dir;

    private static String resource(String name) throws IOException {
        try (InputStream in = ReportTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsJmhJson() throws IOException {
        List<Result> rs = Result.parseAll(resource(FIXTURE));
        assertEquals(57, rs.size());
        Result first = rs.get(0);
        assertEquals("org.bbflow.bench.channel.ChannelThroughputBench.transfer", first.benchmark);
        assertEquals("ChannelThroughputBench", first.bench);
        assertEquals("thrpt", first.mode);
        assertEquals("bbflow-busyspin", first.p("impl"));
        assertEquals("1024", first.p("capacity"));
        assertEquals(393.95622068592724, first.score);
        assertEquals(45.68255404549646, first.error);
        assertEquals("ops/us", first.unit);
        assertEquals("5x1", first.runs);
        assertEquals("1.37", first.jmhVersion);
        assertEquals(393.233957314572, first.percentiles.get(50.0));
        assertEquals(1.9786963931753714, first.secondary("cpu.cores")[0]);
        Result pingPong = rs.stream().filter(r -> r.bench.equals("PingPongBench")).findFirst().orElseThrow();
        assertEquals("sample", pingPong.mode);
        assertTrue(pingPong.percentiles.containsKey(99.9));
    }

    @Test
    void nanStringsAreNotANumberAndBadInputIsRefused() {
        List<Result> rs = Result.parseAll("[{\"jmhVersion\":\"1.37\",\"benchmark\":\"a.b.C.m\",\"mode\":\"ss\","
                + "\"forks\":1,\"measurementIterations\":1,\"params\":{\"n\":10},"
                + "\"primaryMetric\":{\"score\":2.5,\"scoreError\":\"NaN\",\"scoreUnit\":\"ms/op\"}}]");
        assertEquals(1, rs.size());
        assertEquals(2.5, rs.get(0).score);
        assertTrue(Double.isNaN(rs.get(0).error));
        assertEquals("10", rs.get(0).p("n"));
        assertEquals("C", rs.get(0).bench);
        assertThrows(IllegalArgumentException.class, () -> Result.parseAll("{\"benchmark\":\"x\"}"));
        assertThrows(IllegalArgumentException.class, () -> Result.parseAll("[{\"benchmark\":\"x\"}]"));
        assertThrows(IllegalArgumentException.class, () -> Result.parseAll("[{\"benchmark\":"));
    }

    @Test
    void reportAndChartsFromTheRecordedRun() throws IOException {
        Path json = dir.resolve("run.json");
        Files.writeString(json, resource(FIXTURE), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("run.json.env.properties"), resource(FIXTURE + ".env.properties"),
                StandardCharsets.UTF_8);
        Path out = dir.resolve("report");
        List<String> charts = Report.write(json, out);
        assertEquals(List.of("channel-throughput.png", "pingpong-latency.png", "idle-cost.png", "two-stage.png",
                "farm-speedup.png", "pipeline-speedup.png", "oversubscription-speedup.png", "oversubscription-cpu.png"),
                charts);
        for (String chart : charts) {
            Path png = out.resolve(chart);
            assertTrue(Files.size(png) > 5_000, chart + " is empty or nearly so");
            BufferedImage image = ImageIO.read(png.toFile());
            assertEquals(900, image.getWidth(), chart);
            assertTrue(image.getHeight() > 520, chart + ": no caption line under the chart");
        }
        String md = Files.readString(out.resolve("results.md"));
        assertTrue(md.contains("- Machine: 2 cores, AMD EPYC"), md);
        assertTrue(md.contains("| Channel throughput") || md.contains("## Channel throughput"), md);
        assertTrue(md.contains("![farm-speedup.png](farm-speedup.png)"), md);
    }

    @Test
    void chartCaptionNamesMachineJdkAndDate() throws IOException {
        Properties env = new Properties();
        env.load(new java.io.StringReader(resource(FIXTURE + ".env.properties")));
        String caption = Report.caption(env);
        assertTrue(caption.contains("2 cores, AMD EPYC"), caption);
        assertTrue(caption.contains("JDK: OpenJDK 64-Bit Server VM 17.0.15"), caption);
        assertTrue(caption.contains("Date: 2026-11-21T11:39:48"), caption);
    }
}

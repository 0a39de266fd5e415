import org.bbflow.core.*;
import java.nio.file.*;
import java.util.*;

/** ../round3/FirstFlow's first flow, with the classes it loads (a list from -Xlog:class+load) loaded on a second thread meanwhile. Compile with ../round3/FirstFlow.java. */
public class FirstFlowPre {
    public static void main(String[] a) throws Exception {
        long n = Long.parseLong(a[0]);
        boolean pre = a.length > 1 && a[1].equals("pre");
        List<String> names = Files.readAllLines(Path.of(a.length > 2 ? a[2] : "first-flow-classes.txt")); // N pre|no [list]
        Runnable r = () -> { };
        r.run();
        String s = "x" + a.length;
        long t0 = System.nanoTime();
        if (pre) {
            Thread t = new Thread() { public void run() {
                ClassLoader cl = FirstFlowPre.class.getClassLoader();
                for (String c : names) { try { Class.forName(c, false, cl); } catch (Throwable e) { } }
            }};
            t.setDaemon(true);
            t.start();
        }
        FirstFlow.flow(n);
        long t1 = System.nanoTime();
        System.out.printf("RUN 0 %.3f%n", (t1 - t0) / 1e6);
    }
}

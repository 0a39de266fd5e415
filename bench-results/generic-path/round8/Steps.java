import java.lang.foreign.*;
import java.lang.invoke.*;
public class Steps {
    public static void main(String[] a) throws Throwable {
        long t0 = System.nanoTime();
        Linker l = Linker.nativeLinker();
        long t1 = System.nanoTime();
        MemorySegment s = l.defaultLookup().find("sched_setaffinity").get();
        long t2 = System.nanoTime();
        FunctionDescriptor fd = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        MethodHandle h = l.downcallHandle(s, fd);
        long t3 = System.nanoTime();
        MemorySegment m = Arena.global().allocate(128);
        m.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        long t4 = System.nanoTime();
        int rc = (int) h.invokeExact(0, 128L, m);
        long t5 = System.nanoTime();
        System.out.printf("linker %.1f lookup %.1f downcall %.1f alloc %.1f invoke %.1f (rc %d)%n", (t1-t0)/1e6,(t2-t1)/1e6,(t3-t2)/1e6,(t4-t3)/1e6,(t5-t4)/1e6, rc);
    }
}

#!/bin/bash
# Cold two-stage pipeline on the unboxed path (LongNodes), one run per process, timed from outside
# (process start, JVM start, class loading and JIT warm-up included); interleaved rounds.
# Needs the patched perf-kit built into $WORK (bench-results/perf-kit/perfj-longs.diff) and
#   jar cf $WORK/java/perfj.jar -C $WORK/java/classes .     (CDS and the AOT cache take jars only)
set -u
WORK=${WORK:-/tmp/pk2}
ROUNDS=${ROUNDS:-7}
CP="java/lib/agrona-1.23.1.jar:java/lib/bbflow-bench-thesischannel.jar:java/lib/bbflow-core.jar:java/lib/disruptor-4.0.0.jar:java/lib/jctools-core-4.0.5.jar:java/perfj.jar"
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cd "$WORK"
# prints: whole-process ms, exit code, and the first run's own ms as the program reports it (RUN ... ms)
t() { local s=$(date +%s%N); "$@" > /tmp/cold.out 2>&1; local rc=$?; local e=$(date +%s%N);
      echo "$(( (e - s) / 1000000 )) rc=$rc run=$(awk '/^RUN/ {print $NF; exit}' /tmp/cold.out)"; }
for N in 10000000 1000000; do
  ARGS="PerfJ two bbflow-longs-backoff $N 1"
  rm -f longs17-$N.jsa longs25-$N.aot
  # one training run per cache: AppCDS archive (JDK 17) and AOT cache (JDK 25, JEP 483/514/515: classes + profiles)
  $J17 -XX:ArchiveClassesAtExit=longs17-$N.jsa -cp "$CP" $ARGS > /dev/null 2>train17.err
  $J25 -XX:AOTCacheOutput=longs25-$N.aot -cp "$CP" $ARGS > /dev/null 2>train25.err
  ls -la longs17-$N.jsa longs25-$N.aot
  for r in $(seq 1 "$ROUNDS"); do
    echo "N=$N round $r load $(cut -d' ' -f1 /proc/loadavg)"
    echo "ff-nonblocking $(t "$WORK"/cpp/ff_nb two $N 1)"
    echo "longs-jdk17 $(t $J17 -cp "$CP" $ARGS)"
    echo "longs-jdk17-appcds $(t $J17 -XX:SharedArchiveFile=longs17-$N.jsa -cp "$CP" $ARGS)"
    echo "longs-jdk25 $(t $J25 -cp "$CP" $ARGS)"
    echo "longs-jdk25-aot $(t $J25 -XX:AOTCache=longs25-$N.aot -cp "$CP" $ARGS)"
    echo "hello-jdk25-aot $(t $J25 -XX:AOTCache=longs25-$N.aot -cp "$CP" PerfJ two bbflow-longs-backoff 1 1)"
  done
done

#!/bin/bash
# First run of the generic object path in a fresh process (issue 31): the two-stage pipeline of
# existing objects (refs) and of new Longs (boxed), one run per process, interleaved rounds, on plain
# JDK 17, JDK 17 + AppCDS, JDK 25 and JDK 25 + its AOT cache (one training run per cache first).
# Needs the perf-kit built into $WORK (bbflow-bench/perf-kit/run.sh build) and
#   jar cf $WORK/java/perfj.jar -C $WORK/java/classes .     (CDS and the AOT cache take jars only)
# Prints per process: whole-process ms, exit code, the first run's own ms (RUN ... ms).
set -u
WORK=${WORK:-/tmp/pk}
ROUNDS=${ROUNDS:-5}
N=${N:-10000000}
CP="java/lib/perf-kit-lib.jar:java/perfj.jar"
J17=${J17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
J25=${J25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
cd "$WORK"
t() { local s=$(date +%s%N); "$@" > cold.out 2>&1; local rc=$?; local e=$(date +%s%N);
      echo "$(( (e - s) / 1000000 )) rc=$rc run=$(awk '/^RUN/ {print $NF; exit}' cold.out)"; }
for impl in bbflow-refs-backoff bbflow-backoff; do
  rm -f "$impl-17.jsa" "$impl-25.aot"
  $J17 -XX:ArchiveClassesAtExit="$impl-17.jsa" -cp "$CP" PerfJ two $impl $N 1 > /dev/null 2> train17.err
  $J25 -XX:AOTCacheOutput="$impl-25.aot" -cp "$CP" PerfJ two $impl $N 1 > /dev/null 2> train25.err
done
for r in $(seq 1 "$ROUNDS"); do
  echo "N=$N round $r load $(cut -d' ' -f1 /proc/loadavg)"
  echo "ff-nonblocking $(t "$WORK"/cpp/ff_nb two $N 1)"
  for impl in bbflow-refs-backoff bbflow-backoff; do
    echo "$impl-jdk17 $(t $J17 -cp "$CP" PerfJ two $impl $N 1)"
    echo "$impl-jdk17-appcds $(t $J17 -XX:SharedArchiveFile=$impl-17.jsa -cp "$CP" PerfJ two $impl $N 1)"
    echo "$impl-jdk25 $(t $J25 -cp "$CP" PerfJ two $impl $N 1)"
    echo "$impl-jdk25-aot $(t $J25 -XX:AOTCache=$impl-25.aot -cp "$CP" PerfJ two $impl $N 1)"
  done
done

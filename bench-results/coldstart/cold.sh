#!/bin/bash
# Cold two-stage pipeline, N=10M, one run per process, timed from outside; interleaved rounds.
set -u
WORK=${WORK:-/tmp/pk}
CP="java/lib/agrona-1.23.1.jar:java/lib/bbflow-bench-thesischannel.jar:java/lib/bbflow-core.jar:java/lib/disruptor-4.0.0.jar:java/lib/jctools-core-4.0.5.jar:java/perfj.jar"
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
ARGS="PerfJ two bbflow-backoff 10000000 1"
cd $WORK
rm -f app17.jsa app25.aot
# training runs (one each): AppCDS archive (JDK 17) and AOT cache (JDK 25, JEP 514/515: classes + profiles)
$J17 -XX:ArchiveClassesAtExit=app17.jsa -cp "$CP" $ARGS > /dev/null 2>train17.err
$J25 -XX:AOTCacheOutput=app25.aot -cp "$CP" $ARGS > /dev/null 2>train25.err
ls -la app17.jsa app25.aot
t() { local s=$(date +%s%N); "$@" > /tmp/cold.out 2>&1; local rc=$?; local e=$(date +%s%N); echo "$(( (e - s) / 1000000 )) rc=$rc"; }
for r in 1 2 3 4 5 6 7; do
  echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
  echo "ff-nonblocking $(t $WORK/cpp/ff_nb two 10000000 1)"
  echo "jdk17 $(t $J17 -cp "$CP" $ARGS)"
  echo "jdk17-appcds $(t $J17 -XX:SharedArchiveFile=app17.jsa -cp "$CP" $ARGS)"
  echo "jdk25 $(t $J25 -cp "$CP" $ARGS)"
  echo "jdk25-aot $(t $J25 -XX:AOTCache=app25.aot -cp "$CP" $ARGS)"
  echo "jdk17-C1only $(t $J17 -XX:TieredStopAtLevel=1 -cp "$CP" $ARGS)"
done

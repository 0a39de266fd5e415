#!/bin/bash
# cold2.sh: first run of the refs two-stage (10M) in a fresh process, this round's build against the one
# before, interleaved with FastFlow: plain JDK 17, JDK 17 + AppCDS, JDK 25 + AOT cache (one training
# run per cache first). Dirs $D/fut and $D/final2 hold perf-kit-lib.jar and perfj.jar (jar cf of the
# perf-kit classes). Prints: config whole-process-ms first-run-ms.
set -u
D=${D:-/tmp/pk31/cold2}; R=${ROUNDS:-7}; N=${N:-10000000}; FF=${FF:-/tmp/pk31/cpp/ff_nb}
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cd "$D"
for t in fut final2; do
  CP="$t/perf-kit-lib.jar:$t/perfj.jar"
  rm -f $t.jsa $t.aot
  $J17 -XX:ArchiveClassesAtExit=$t.jsa -cp "$CP" PerfJ two bbflow-refs-backoff $N 1 > /dev/null 2>&1
  $J25 -XX:AOTCacheOutput=$t.aot -cp "$CP" PerfJ two bbflow-refs-backoff $N 1 > /dev/null 2>&1
done
run() { local s=$(date +%s%N); local o=$("$@" 2>/dev/null); local e=$(date +%s%N);
        echo "$(( (e - s) / 1000000 )) $(echo "$o" | awk '/^RUN/ {print $NF; exit}')"; }
for r in $(seq 1 $R); do
  echo "round $r load $(cut -d' ' -f1 /proc/loadavg)"
  echo "ff $(run $FF two $N 1)"
  for t in fut final2; do
    CP="$t/perf-kit-lib.jar:$t/perfj.jar"
    echo "$t-jdk17 $(run $J17 -cp "$CP" PerfJ two bbflow-refs-backoff $N 1)"
    echo "$t-appcds $(run $J17 -XX:SharedArchiveFile=$t.jsa -cp "$CP" PerfJ two bbflow-refs-backoff $N 1)"
    echo "$t-jdk25-aot $(run $J25 -XX:AOTCache=$t.aot -cp "$CP" PerfJ two bbflow-refs-backoff $N 1)"
  done
done

#!/bin/sh
# Outside JMH, alternating processes: the unboxed pipeline started 40 times at 1M, default channels
# (1024) against channels of 64, with page faults and collections counted. CORE: the bbflow-core
# jar to use. (The raw floors are measured in JMH: floors-first-run.sh and twostage-ab.sh.)
set -e
cd "$(dirname "$0")"
M2=${M2:-$HOME/.m2/repository}
JC=$M2/org/jctools/jctools-core/4.0.5/jctools-core-4.0.5.jar
AG=$(ls "$M2"/org/agrona/agrona/*/agrona-*.jar | grep -v sources | head -1)
CORE=${CORE:-../../bbflow-core/target/bbflow-core-0.1.0-SNAPSHOT.jar}
OUT=$(mktemp -d)
javac -d "$OUT" -cp "$JC:$CORE" RepeatedFlows.java
uptime
for round in 1 2 3 4 5 6; do
    for cap in 0 64; do
        /usr/bin/time -f "  %R minor page faults, %M KB resident" \
            java -Xlog:gc:file="$OUT/gc.log" -cp "$CORE:$JC:$AG:$OUT" RepeatedFlows 1000000 40 $cap 2>&1
        echo "  $(grep -c 'Pause Young' "$OUT/gc.log") young collections"
    done
done
uptime
rm -rf "$OUT"

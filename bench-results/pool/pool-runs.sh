#!/bin/sh
# Outside JMH, alternating processes: the unboxed two-stage pipeline started RUNS times (default 40)
# at 1M on the default channels, without the pool of batches that outlive their flow
# (-Dbbflow.batchPool=0, the default) and with it (1024), page faults and collections counted.
# Uses ../recycle/RepeatedFlows.java. CORE: the bbflow-core jar to use; ROUNDS: pairs (default 6).
set -e
cd "$(dirname "$0")"
M2=${M2:-$HOME/.m2/repository}
JC=$M2/org/jctools/jctools-core/4.0.5/jctools-core-4.0.5.jar
AG=$(ls "$M2"/org/agrona/agrona/*/agrona-*.jar | grep -v sources | head -1)
CORE=${CORE:-../../bbflow-core/target/bbflow-core-0.1.0-SNAPSHOT.jar}
OUT=$(mktemp -d)
javac -d "$OUT" -cp "$JC:$CORE" ../recycle/RepeatedFlows.java
uptime
RUNS=${RUNS:-40}
for round in $(seq 1 "${ROUNDS:-6}"); do
    for pool in 0 1024; do
        echo "pool $pool"
        /usr/bin/time -f "  %R minor page faults, %M KB resident" \
            java -Dbbflow.batchPool=$pool -Xlog:gc:file="$OUT/gc.log" -cp "$CORE:$JC:$AG:$OUT" RepeatedFlows 1000000 $RUNS 0 2>&1
        echo "  $(grep -c 'Pause Young' "$OUT/gc.log") young collections"
    done
done
uptime
rm -rf "$OUT"

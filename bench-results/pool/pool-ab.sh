#!/bin/sh
# The unboxed two-stage pipeline in JMH without and with the pool of batches that outlive their
# flow (-Dbbflow.batchPool=0, the default, then 1024), alternating sessions for ROUNDS rounds (every
# invocation starts a new flow, so from the second on a flow finds the last one's batches in the
# pool). The reusing floor `long-batches-reused` (no flow, no pool) runs in every session as the
# check that the host did not move: compare only sessions whose floors agree.
set -e
JAR=${JAR:-bbflow-bench/target/benchmarks.jar}
OUT=${OUT:-bench-results/pool}
ROUNDS=${ROUNDS:-2}
uptime
for round in $(seq 1 "$ROUNDS"); do
    for pool in 0 1024; do
        echo "== round $round, bbflow.batchPool=$pool"
        java -jar "$JAR" TwoStageBench -p n=1000000,10000000 -p impl=bbflow-longs,long-batches-reused \
            -jvmArgsAppend -Dbbflow.batchPool=$pool -f 2 -wi 3 -i 5 -rf json \
            -rff "$OUT/twostage-pool$pool-r$round.json"
        uptime
    done
done

#!/bin/sh
# The unboxed two-stage pipeline before and after batch recycling, with the floors, in one JMH
# session each, one after the other: BEFORE (a bench jar of cf7277d) then AFTER (this commit).
# The allocating floor `long-batches` runs in both, as the check that the host did not move.
set -e
BEFORE=${BEFORE:-/tmp/main.jar}
AFTER=${AFTER:-bbflow-bench/target/benchmarks.jar}
OUT=${OUT:-bench-results/recycle}
uptime
java -jar "$BEFORE" TwoStageBench -p n=1000000,10000000 -p impl=bbflow-longs,long-batches \
    -f 3 -wi 3 -i 5 -rf json -rff "$OUT/twostage-before.json"
uptime
java -jar "$AFTER" TwoStageBench -p n=1000000,10000000 \
    -p impl=bbflow-longs,long-batches,long-batches-reused,bbflow-backoff,jctools \
    -f 3 -wi 3 -i 5 -rf json -rff "$OUT/twostage-after.json"
uptime

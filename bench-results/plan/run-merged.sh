#!/bin/bash
# The compiled plan's A/B again, after issues 28 and 31 were merged into main: before = a1df6f0 (main
# before the plan), merged = main with the plan and the generic path's runs. Each jar built with
# ./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests in a checkout of its own and copied to
# /tmp/plan-<jar>.jar; the order of the jars alternates per round. Usage: ROUNDS=4 run-merged.sh OUTDIR
set -u
ROUNDS=${ROUNDS:-4}
OUT=${1:-.}
mkdir -p "$OUT"
jars=(before merged)
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then order=(before merged); else order=(merged before); fi
  for j in "${order[@]}"; do
    echo "round $round jar $j load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
    java -jar /tmp/plan-$j.jar 'flow.FarmBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p workers=2 \
      -p policy=rr-firstcome,rr-ordered,ondemand-firstcome -p items=100000 -p work=1 \
      -rf json -rff "$OUT/m-farm-$j-$round.json" > "$OUT/m-farm-$j-$round.log" 2>&1
    java -jar /tmp/plan-$j.jar 'flow.TwoStageBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p impl=bbflow-backoff \
      -p n=1000000 -rf json -rff "$OUT/m-two-$j-$round.json" > "$OUT/m-two-$j-$round.log" 2>&1
  done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"

#!/bin/bash
# A/B/C of the compiled plan (issue 28): before = a1df6f0 (main before the plan), main = main at the
# time of the run (same code as core28 minus the plan), core28 = the plan. Each jar built the same
# way (./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests) in a clone of its own; run under the
# CPU lock, the order of the jars rotating per round. Usage: ROUNDS=3 run-ab.sh OUTDIR
set -u
ROUNDS=${ROUNDS:-3}
OUT=${1:-.}
mkdir -p "$OUT"
jars=(before main core28)
for round in $(seq 1 "$ROUNDS"); do
  shift_by=$(( (round - 1) % 3 ))
  order=("${jars[@]:$shift_by}" "${jars[@]:0:$shift_by}")
  for j in "${order[@]}"; do
    echo "round $round jar $j load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
    java -jar /tmp/core28-$j.jar 'flow.FarmBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p workers=2 \
      -p policy=rr-firstcome,rr-ordered,ondemand-firstcome -p items=100000 -p work=1 \
      -rf json -rff "$OUT/farm-$j-$round.json" > "$OUT/farm-$j-$round.log" 2>&1
    java -jar /tmp/core28-$j.jar 'flow.TwoStageBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p impl=bbflow-backoff \
      -p n=1000000 -rf json -rff "$OUT/two-$j-$round.json" > "$OUT/two-$j-$round.log" 2>&1
  done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"

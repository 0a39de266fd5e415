#!/bin/bash
# Ordered farm, the commit before the core restructure (old = 49e3afd) against main, alternating
# which jar goes first each round. Jars: /tmp/old.jar and /tmp/main.jar (bbflow-bench/target/benchmarks.jar
# of each commit). Run from the directory that should receive the JSON files.
ROUNDS=${ROUNDS:-12}
for round in $(seq 1 $ROUNDS); do
  for j in old main; do
    if [ $((round % 2)) -eq 0 ]; then j=$([ $j = old ] && echo main || echo old); fi
    echo "round $round jar $j load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
    java -jar /tmp/$j.jar 'flow.FarmBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p workers=2 -p policy=rr-ordered -p items=100000 -p work=1 -rf json -rff ordered-$j-$round.json 2>&1 | grep -E "^FarmBench.farm "
  done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"

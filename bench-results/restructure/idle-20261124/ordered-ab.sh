#!/bin/bash
cd /tmp/ab
for round in 1 2 3 4 5; do
  for j in old main; do
    if [ $((round % 2)) -eq 0 ]; then j=$([ $j = old ] && echo main || echo old); fi
    echo "round $round jar $j load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
    java -jar /tmp/$j.jar 'flow.FarmBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p workers=2 -p policy=rr-ordered -p items=100000 -p work=1 -rf json -rff ordered-$j-$round.json 2>&1 | grep -E "^FarmBench.farm "
  done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"

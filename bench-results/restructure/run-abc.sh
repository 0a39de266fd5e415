#!/bin/bash
cd /tmp/ab
for round in 1 2; do
  for j in C A B; do
    echo "round $round jar $j load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"
    java -jar /tmp/$j.jar 'flow.FarmBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p workers=2 -p policy=rr-firstcome,rr-ordered,ondemand-firstcome -p items=100000 -p work=1 -rf json -rff farm-$j-$round.json > farm-$j-$round.log 2>&1
    java -jar /tmp/$j.jar 'flow.TwoStageBench' -f 3 -wi 2 -i 3 -w 1s -r 1s -p impl=bbflow-backoff -p n=1000000 -rf json -rff two-$j-$round.json > two-$j-$round.log 2>&1
  done
done
echo "end load $(cut -d' ' -f1-3 /proc/loadavg) $(date +%T)"

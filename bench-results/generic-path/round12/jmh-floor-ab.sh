#!/bin/bash
# alternate FloorBench sessions of the jar before and now
for r in 1 2; do for t in before now; do
  echo "=== $t round $r $(date +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  java -jar /tmp/s13/bench-$t.jar 'flow.FloorBench' -p n=1000000,10000000 -p impl=jctools-yield,bbflow-backoff -f 3 -wi 2 -i 3 -w 1s -r 1s 2>&1 | grep -E "^FloorBench|^Benchmark" 
done; done
echo "end $(date +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"

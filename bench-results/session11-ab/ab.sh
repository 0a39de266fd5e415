#!/bin/bash
# A/B of this session's core changes (6a6576f -> 9eac78a: the StreamFailure paths, the start-time
# refusals, NodeContext.flowFailure) on the generic path: FloorBench at 1M, the raw floor beside it,
# before/after jars interleaved. Jars: git archive REV | tar -x; ./mvnw -q -o -pl bbflow-bench -am package -DskipTests
for round in 1 2; do
  for v in before after; do
    echo "== $v round $round $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -jar /tmp/ab/$v.jar 'flow.FloorBench' -p n=1000000 -p impl=jctools-yield,bbflow-backoff -f 2 -wi 3 -i 4 -w 1s -r 1s 2>&1 | grep -E "^FloorBench|^Benchmark" | grep -v ":·\|:wait\|:full\|:empty"
  done
done
echo "== end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"

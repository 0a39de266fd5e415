#!/bin/bash
# Fine-grained farm of 2 workers (Flows.farm: range as emitter, sink as collector, 4 threads) and its
# sequential baseline, before (OLD jar) and after (NEW jar) the oversubscription change, alternated.
OLD=${OLD:-/tmp/wt-old/bbflow-bench/target/benchmarks.jar}
NEW=${NEW:-bbflow-bench/target/benchmarks.jar}
P="-p items=100000 -p work=360,3600 -f 2 -wi 3 -i 5"
for round in 1 2; do
  for v in OLD NEW; do
    jar=${!v}
    echo "== round $round $v load $(cut -d' ' -f1 /proc/loadavg)"
    java -jar "$jar" 'flow.FarmBench' -p workers=2 -p policy=rr-firstcome $P 2>&1 | grep -E '^FarmBench'
    java -jar "$jar" 'flow.SequentialBench' $P 2>&1 | grep -E '^SequentialBench'
  done
done

#!/bin/bash
echo "== start $(date) $(uptime)"
cd /work/wt/perf31
# break the code on purpose, once per new test: each mutation must fail PlainEdgeTest
for m in noRuns noReset noCancel countAfter; do
  python3 /tmp/perf31/mutate.py $m
  ./mvnw -B -o -q test -pl bbflow-core -Dtest=PlainEdgeTest -Dsurefire.failIfNoSpecifiedTests=false > /tmp/perf31/mut-$m.log 2>&1
  echo "mutation $m: rc=$? $(grep -E 'Tests run:.*Fail' /tmp/perf31/mut-$m.log | tail -1)"
  grep -E '^\[ERROR\]   PlainEdgeTest' /tmp/perf31/mut-$m.log | head -3
  git checkout -- bbflow-core/src/main/java/org/bbflow/core/NodeRunner.java
done
git status --short | head
/tmp/perf31/mkjava.sh base /tmp/perf31/jars/base.jar
echo "== refspad $(date) $(uptime)"
ABGROUPS='[["two","bbflow-refs-backoff","10000000","10",5],["two","bbflow-refspad-backoff","10000000","10",5],["two","bbflow-refs-backoff","1000000","30",20],["two","bbflow-refspad-backoff","1000000","30",20]]' \
  ABLOG=/tmp/perf31/ab-round4.log python3 /tmp/perf31/ab.py 5 final base
echo "== end $(date) $(uptime)"

#!/bin/bash
# final series: build, focused tests, A/B perf, JMH floor, perf-kit (refs, farm, ping), cold start, full verify
cd /work/wt/perf31
echo "== start $(date) $(uptime)"
git log --oneline -1
./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests 2>&1 | tail -20 || exit 1
cp bbflow-bench/target/benchmarks.jar /tmp/perf31/jars/final.jar
/tmp/perf31/mkjava.sh final /tmp/perf31/jars/final.jar
echo "== tests $(uptime)"
./mvnw -B -o -q test -pl bbflow-core -Dtest='PaddingTest,PlainEdgeTest,RandomCompositionTest,FarmTest,PipelineTest' -Dsurefire.failIfNoSpecifiedTests=false 2>&1 | tail -30
grep -h 'Tests run' bbflow-core/target/surefire-reports/*.txt
echo "== ab $(uptime)"
GROUPS='[["two","bbflow-refs-backoff","10000000","10",5],["two","bbflow-refs-backoff","1000000","30",20],["two","bbflow-refspad-backoff","10000000","10",5],["two","bbflow-refspad-backoff","1000000","30",20]]' \
  ABLOG=/tmp/perf31/ab-round3.log python3 /tmp/perf31/ab.py 5 base final floor
echo "== jmh $(uptime)"
java -jar /tmp/perf31/jars/final.jar 'flow.FloorBench' -p n=1000000,10000000 -p impl=jctools-yield,jctools-batch,bbflow-backoff,bbflow-busyspin \
   -f 2 -wi 3 -i 5 -w 1s -r 1s -rf json -rff /tmp/perf31/floor-final.json > /tmp/perf31/floor-final.log 2>&1
tail -30 /tmp/perf31/floor-final.log
java -jar /tmp/perf31/jars/base.jar 'flow.FloorBench' -p n=1000000,10000000 -p impl=bbflow-backoff \
   -f 2 -wi 3 -i 5 -w 1s -r 1s -rf json -rff /tmp/perf31/floor-base.json > /tmp/perf31/floor-base.log 2>&1
tail -8 /tmp/perf31/floor-base.log
echo "== perf-kit $(uptime)"
W=/tmp/perf31/pkf; rm -rf $W; mkdir -p $W/results; cp -r /tmp/perf31/pk/cpp $W/cpp; cp -r /tmp/perf31/pk-final/java $W/java
python3 bbflow-bench/perf-kit/make_plan.py $W 360 3600 36000 > $W/plan.json
python3 bbflow-bench/perf-kit/plans/refs-plan.py $W/plan.json > $W/refs.json
python3 bbflow-bench/perf-kit/plans/goals-plan.py $W/plan.json > $W/farm-ping.json
FF_ROOT=/tmp/perf31/fastflow WORK=$W PLAN=$W/refs.json LOAD_LIMIT=99 LOAD_WAIT_MIN=0 bbflow-bench/perf-kit/run.sh measure --rounds 5
FF_ROOT=/tmp/perf31/fastflow WORK=$W PLAN=$W/farm-ping.json LOAD_LIMIT=99 LOAD_WAIT_MIN=0 bbflow-bench/perf-kit/run.sh measure --rounds 5
echo "== cold $(uptime)"
jar cf $W/java/perfj.jar -C $W/java/classes .
WORK=$W ROUNDS=5 bench-results/coldstart/cold-refs.sh > /tmp/perf31/cold-refs.log 2>&1
echo "== verify $(uptime)"
./mvnw -B -o verify > /tmp/perf31/verify.log 2>&1; echo "verify rc=$?"
tail -40 /tmp/perf31/verify.log | grep -E 'Tests run|BUILD|ERROR|FAIL' | head -20
echo "== end $(date) $(uptime)"

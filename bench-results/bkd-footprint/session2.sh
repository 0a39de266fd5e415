#!/bin/bash
# second CPU-lock session: the id page looked up once per run of points; JMH alternated against main's jar; full verify
set -u
OUT=/tmp/bkd29b-runs
NEW=/work/wt/bkd29b
echo "start2 $(date -u) $(uptime)"
cp /tmp/bkd29b-opt/*.java $NEW/bbflow-bkd/src/main/java/org/bbflow/bkd/
(cd $NEW && ./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests) > $OUT/build-new2.log 2>&1 || { echo "new2 build failed"; exit 1; }
cp $NEW/bbflow-bench/target/benchmarks.jar $OUT/new2.jar
echo "built2 $(date -u) $(uptime)"
for round in 3 4; do
  for v in base new2; do
    echo "== jmh $v round $round $(date -u) $(uptime)" | tee -a $OUT/jmh-$v.txt
    java -jar $OUT/$v.jar 'BkdQueryBenchmark|BkdNearestBenchmark' -p size=4000000 -p shape=1,natural,tiers -p selectivity=0.10 \
      -f 1 -wi 3 -w 1 -i 5 -r 1 -rf json -rff $OUT/jmh-$v-$round.json >> $OUT/jmh-$v.txt 2>&1
    echo "== end $(date -u) $(uptime)" >> $OUT/jmh-$v.txt
  done
done
echo "jmh2 done $(date -u) $(uptime)"
cd $NEW && ./mvnw -B -o verify > $OUT/verify2.log 2>&1
echo "verify2 rc=$? $(date -u) $(uptime)"

#!/bin/bash
# one CPU-lock session: build both bench jars, footprint on G1 and Serial for main and the branch, JMH alternated
set -u
OUT=/tmp/bkd29b-runs
NEW=/work/wt/bkd29b
BASE=/tmp/bkd29b-base
echo "start $(date -u) $(uptime)"
(cd $NEW && ./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests) > $OUT/build-new.log 2>&1 || { echo "new build failed"; exit 1; }
(cd $BASE && ./mvnw -B -o -q package -pl bbflow-bench -am -DskipTests) > $OUT/build-base.log 2>&1 || { echo "base build failed"; exit 1; }
cp $NEW/bbflow-bench/target/benchmarks.jar $OUT/new.jar
cp $BASE/bbflow-bench/target/benchmarks.jar $OUT/base.jar
echo "built $(date -u) $(uptime)"
for gc in G1 Serial; do
  for v in new base; do
    flag=""; [ $gc = Serial ] && flag="-XX:+UseSerialGC"
    echo "== footprint $v $gc $(date -u) $(uptime)" | tee -a $OUT/footprint-$v-$gc.txt
    java -Xmx3g $flag -cp $OUT/$v.jar org.bbflow.bench.bkd.BkdFootprint 1048576 >> $OUT/footprint-$v-$gc.txt 2>&1
    echo "== end $(date -u) $(uptime)" >> $OUT/footprint-$v-$gc.txt
  done
done
echo "footprint done $(date -u) $(uptime)"
for round in 1 2; do
  for v in base new; do
    echo "== jmh $v round $round $(date -u) $(uptime)" | tee -a $OUT/jmh-$v.txt
    java -jar $OUT/$v.jar 'BkdQueryBenchmark|BkdNearestBenchmark' -p size=4000000 -p shape=1,natural,tiers -p selectivity=0.10 \
      -f 1 -wi 3 -w 1 -i 5 -r 1 -rf json -rff $OUT/jmh-$v-$round.json >> $OUT/jmh-$v.txt 2>&1
    echo "== end $(date -u) $(uptime)" >> $OUT/jmh-$v.txt
  done
done
echo "all done $(date -u) $(uptime)"
cd $NEW
echo "== mutation: a leaf read as if it lay in one page (KdTree.visit) $(date -u)" 
cp bbflow-bkd/src/main/java/org/bbflow/bkd/KdTree.java $OUT/KdTree.java.orig
sed -i 's|int end = Math.min(to, ((i >>> shift) + 1) << shift);|int end = to;   // MUTATION|' bbflow-bkd/src/main/java/org/bbflow/bkd/KdTree.java
grep -c MUTATION bbflow-bkd/src/main/java/org/bbflow/bkd/KdTree.java
./mvnw -B -o verify -pl bbflow-bkd -am -Dtest='PagedTreeTest,OracleTest' -Dsurefire.failIfNoSpecifiedTests=false > $OUT/mutation.log 2>&1
echo "mutation run rc=$? (expect failure)"
cp $OUT/KdTree.java.orig bbflow-bkd/src/main/java/org/bbflow/bkd/KdTree.java
git diff --stat -- bbflow-bkd/src/main/java/org/bbflow/bkd/KdTree.java
echo "== full verify $(date -u) $(uptime)"
./mvnw -B -o verify > $OUT/verify.log 2>&1
echo "verify rc=$? $(date -u) $(uptime)"

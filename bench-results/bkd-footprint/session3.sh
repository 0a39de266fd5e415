#!/bin/bash
OUT=/tmp/bkd29b-runs
for gc in G1 Serial; do
  flag=""; [ $gc = Serial ] && flag="-XX:+UseSerialGC"
  echo "== footprint new2 $gc $(date -u) $(uptime)" > $OUT/footprint-new2-$gc.txt
  java -Xmx3g $flag -cp $OUT/new2.jar org.bbflow.bench.bkd.BkdFootprint 1048576 >> $OUT/footprint-new2-$gc.txt 2>&1
  echo "== end $(date -u) $(uptime)" >> $OUT/footprint-new2-$gc.txt
done
echo "== final verify $(date -u) $(uptime)"
cd /work/wt/bkd29b && ./mvnw -B -o verify > $OUT/verify3.log 2>&1
echo "verify3 rc=$? $(date -u) $(uptime)"

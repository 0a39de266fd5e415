#!/bin/bash
# usage: ab.sh ROUNDS W ITEMS RUNS NEWCLASSES
L=/tmp/pk38/java/lib/perf-kit-lib.jar
R=$1; W=$2; I=$3; N=$4; NEW=$5
for r in $(seq 1 $R); do
  echo "round $r $(cut -d' ' -f1-3 /proc/loadavg)"
  echo -n "old "; /work/bin/cpu java -cp $L:. FarmWait backoff $W $I $N
  echo -n "new "; /work/bin/cpu java -cp $NEW:$L:. FarmWait backoff $W $I $N
  echo -n "ps  "; /work/bin/cpu java -cp $L:. FarmWait pstream $W $I $N
done

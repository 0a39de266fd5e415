#!/bin/bash
# launch-ab.sh ROUNDS N OPTS... : per process: median of runs 6-30 of PerfJ two bbflow-refs-backoff N 30 and how many of them are slow (> SLOW ms), per JVM option set (comma-separated; "-" for none), interleaved
R=$1; N=$2; shift 2
M2=~/.m2/repository
LIB=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar:$M2/com/lmax/disruptor/4.0.0/disruptor-4.0.0.jar
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg)"
  for o in "$@"; do
    opts=$(echo "$o" | tr ',' ' '); [ "$o" = "-" ] && opts=""
    v=$(java $opts -cp /tmp/pk32/java/classes:/tmp/fr/${JAR:-exp}/core.jar:$LIB PerfJ two ${IMPL:-bbflow-refs-backoff} $N 30 | awk '/^RUN/{print $NF}' | tail -25 | python3 -c "
import sys,statistics; t=[float(x) for x in sys.stdin]; print('%.2f/%d'%(statistics.median(t),sum(1 for x in t if x>${SLOW:-6.5})))")
    line="$line | $o $v"
  done
  echo "$line"
done

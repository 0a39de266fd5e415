#!/bin/bash
# ping-ab.sh ROUNDS IMPL N TAG... : warm median (runs 4-8 of 8) of PerfJ ping IMPL N in fresh JDK 17 processes, per core jar TAG, interleaved
R=$1; IMPL=$2; N=$3; shift 3
M2=~/.m2/repository
LIB=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar:/root/.m2/repository/com/lmax/disruptor/4.0.0/disruptor-4.0.0.jar
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg)"
  for t in "$@"; do
    v=$(java -cp /tmp/pk32/java/classes:/tmp/fr/$t/core.jar:$LIB PerfJ ping $IMPL $N 8 | awk '/^RUN/{print $NF}' | tail -5 | sort -n | sed -n 3p)
    line="$line $t $v"
  done
  echo "$line"
done

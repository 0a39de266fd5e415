#!/bin/bash
# warm-ab.sh ROUNDS N RUNS FROM TAG[@opts]... : per fresh JDK 17 process the median of runs FROM..RUNS of PerfJ two IMPL N, per core jar TAG, interleaved, + FastFlow (pinned, as by default)
R=$1; N=$2; RUNS=$3; FROM=$4; shift 4
M2=~/.m2/repository
LIB=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar:$M2/com/lmax/disruptor/4.0.0/disruptor-4.0.0.jar
med() { awk '/^RUN/{print $NF}' | tail -n +$FROM | sort -n | awk '{a[NR]=$1} END{printf "%.2f", (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg) ff $(/tmp/pk32/cpp/ff_nb two $N $RUNS | FROM=$FROM med)"
  for spec in "$@"; do
    t=${spec%%@*}; o=""; [[ $spec == *@* ]] && o=$(echo "${spec#*@}" | tr ',' ' ')
    line="$line $spec $(java $o -cp /tmp/pk32/java/classes:/tmp/fr/$t/core.jar:$LIB PerfJ two ${IMPL:-bbflow-refs-backoff} $N $RUNS | med)"
  done
  echo "$line"
done

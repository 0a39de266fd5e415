#!/bin/bash
# ab.sh ROUNDS N SPEC... : first runs (ms; RUNS per process, default 1) of PerfJ two IMPL in fresh JDK 17 processes per SPEC (TAG or TAG@opt,opt), interleaved, + FastFlow's first run
R=$1; N=$2; shift 2
J=${J:-java}
M2=~/.m2/repository
LIB=$M2/org/jctools/jctools-core/4.0.7/jctools-core-4.0.7.jar:$M2/org/agrona/agrona/2.6.0/agrona-2.6.0.jar:$M2/com/lmax/disruptor/4.0.0/disruptor-4.0.0.jar
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg) ff $(/tmp/pk32/cpp/ff_nb two $N 1 | awk '/^RUN/{print $NF; exit}')"
  for spec in "$@"; do
    t=${spec%%@*}; o=""; [[ $spec == *@* ]] && o=$(echo "${spec#*@}" | tr ',' ' ')
    v=$($J $o -cp /tmp/pk32/java/classes:/tmp/fr/$t/core.jar:$LIB PerfJ two ${IMPL:-bbflow-refs-backoff} $N ${RUNS:-1} | awk '/^RUN/{printf "%s ", $NF}')
    line="$line $spec $v"
  done
  echo "$line"
done

#!/bin/bash
# ab.sh ROUNDS N SPEC... : first run (ms) of PerfJ refs two-stage in a fresh JDK 17 process per SPEC (TAG or TAG@opt,opt), interleaved, + FastFlow
R=$1; N=$2; shift 2
J=${J:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}
for r in $(seq $R); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg) ff $(/tmp/pk31/cpp/ff_nb two $N 1 | awk '/^RUN/{print $NF; exit}')"
  for spec in "$@"; do
    t=${spec%%@*}; o=""; [[ $spec == *@* ]] && o=$(echo "${spec#*@}" | tr ',' ' ')
    v=$($J $o -cp /tmp/pk31/pk-fut/java/classes:/tmp/fr/$t/core.jar:/tmp/fr/base/base.jar PerfJ two ${IMPL:-bbflow-refs-backoff} $N ${RUNS:-1} | awk '/^RUN/{printf "%s ", $NF}')
    line="$line $spec $v"
  done
  echo "$line"
done

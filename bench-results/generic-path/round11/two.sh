#!/bin/bash
# usage: two.sh ROUNDS N RUNS impl[@jvmopts]...  -> per process median of the second half of runs
R=$1; N=$2; RUNS=$3; shift 3
CP="${CP:-/tmp/pk35/java/classes:/tmp/pk35/java/lib/*}"
JAVA=${JAVA:-java}
for r in $(seq 1 $R); do
  for spec in "$@"; do
    impl=${spec%%@*}; opts=""; [[ $spec == *@* ]] && opts=${spec#*@}
    $JAVA ${opts//,/ } -cp "$CP" PerfJ two $impl $N $RUNS | python3 /tmp/s12/med.py "$spec"
  done
done
uptime

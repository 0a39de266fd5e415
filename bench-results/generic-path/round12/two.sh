#!/bin/bash
# two.sh ROUNDS N RUNS IMPL spec...: PerfJ two IMPL (jctools-refs for raw) with core jar /tmp/fr/TAG/core.jar before the kit (/tmp/pk35); JAVA picks the JDK
R=$1; N=$2; RUNS=$3; IMPL=$4; shift 4
for r in $(seq 1 $R); do for spec in "$@"; do
  tag=${spec%%@*}; opts=""; [[ $spec == *@* ]] && opts=${spec#*@}
  if [ $tag = raw ]; then impl=jctools-refs; cp="/tmp/pk35/java/classes:/tmp/pk35/java/lib/*"; else impl=$IMPL; cp="/tmp/fr/$tag/core.jar:/tmp/pk35/java/classes:/tmp/pk35/java/lib/*"; fi
  ${JAVA:-java} ${opts//,/ } -cp "$cp" PerfJ two $impl $N $RUNS 2>/dev/null | python3 /tmp/s12/med.py "$spec"
done; done; uptime

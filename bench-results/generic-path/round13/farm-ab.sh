#!/bin/bash
# farm-ab.sh ROUNDS W TAG... : alternates fresh JVMs of the perf kit's boxed farm (PerfJ farm bbflow-backoff W 250000 10)
# on /tmp/fr/TAG/core.jar ahead of the kit's classes; prints each process's runs
R=$1; W=$2; shift 2
for r in $(seq 1 $R); do for t in "$@"; do
  tag=${t%%@*}; impl=bbflow-backoff; [[ $t == *@* ]] && impl=${t#*@}
  echo "$t $r $(cut -d' ' -f1 /proc/loadavg) $(java -cp /tmp/fr/$tag/core.jar:/tmp/pk37/java/classes:'/tmp/pk37/java/lib/*' PerfJ farm $impl $W 250000 10 | awk '/^RUN/{printf "%s ", $5}')"
done; done

#!/bin/bash
# pj.sh ROUNDS N RUNS impl[@patchdir] ... : alternate PerfJ processes (pk-final2), warm = runs 3..
R=$1; N=$2; RUNS=$3; shift 3
for r in $(seq $R); do for spec in "$@"; do
  impl=${spec%%@*}; patch=""; [[ $spec == *@* ]] && patch="${spec#*@}:"
  java ${JOPTS:-} -cp "${patch}/tmp/pk31/pk-final2/java/classes:/tmp/pk31/pk-final2/java/lib/*" PerfJ two $impl $N $RUNS | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')][3:]
print('$r %-40s med %7.2f min %7.2f max %7.2f  %s'%('$spec',statistics.median(t),min(t),max(t),' '.join('%.0f'%x for x in t)))"
done; done

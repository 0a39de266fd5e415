#!/bin/bash
# ab.sh ROUNDS N RUNS variants... (warm = runs 3.. of each process)
R=$1; N=$2; RUNS=$3; shift 3
CP=".:/tmp/pk31/pk-final2/java/lib/*"
for r in $(seq $R); do for v in "$@"; do
  java -cp "$CP" ${JOPTS:-} Probe $v $N $RUNS | python3 -c "
import sys,statistics
t=[float(l.split()[3]) for l in sys.stdin if l.startswith('RUN')][3:]
print('$r %-20s med %7.2f min %7.2f max %7.2f  %s'%('$v',statistics.median(t),min(t),max(t),' '.join('%.0f'%x for x in t)))"
done; done

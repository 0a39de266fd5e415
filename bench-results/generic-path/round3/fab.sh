#!/bin/bash
# fab.sh ROUNDS W ITEMS RUNS spec[@patch]...
R=$1; W=$2; I=$3; RUNS=$4; shift 4
for r in $(seq $R); do for spec in "$@"; do
  s=${spec%%@*}; patch=""; [[ $spec == *@* ]] && patch="${spec#*@}:"
  java ${JOPTS:-} -cp "${patch}/tmp/pk31/probe:/tmp/pk31/pk-final2/java/lib/*" FarmAB $W $I $RUNS $s | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')][2:]
print('$r %-30s med %7.1f mean %7.1f bad %2d/%d  %s'%('$spec',statistics.median(t),statistics.mean(t),sum(x>135 for x in t),len(t),' '.join('%.0f'%x for x in t)))"
done; done

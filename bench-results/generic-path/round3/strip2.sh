#!/bin/bash
# strip2.sh ROUNDS N RUNS cfg... ; prints per-process warm medians and the median over processes
R=$1; N=$2; RUNS=$3; shift 3
for r in $(seq $R); do for st in "$@"; do
  java -Dstrip=$st -cp "/tmp/pk31/probe/patch:/tmp/pk31/pk-final2/java/classes:/tmp/pk31/pk-final2/java/lib/*" PerfJ two bbflow-refs-backoff $N $RUNS | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')][3:]
print('$st %.2f %.2f'%(statistics.median(t),min(t)))"
done; done | python3 -c "
import sys,statistics,collections
d=collections.defaultdict(list); m=collections.defaultdict(list)
for l in sys.stdin:
    k,a,b=l.split(); d[k].append(float(a)); m[k].append(float(b))
for k in d: print('strip=%-4s med-of-procs %7.2f  min-of-procs-mins %6.2f  med-of-mins %6.2f  [%s]'%(k,statistics.median(d[k]),min(m[k]),statistics.median(m[k]),' '.join('%.0f'%x for x in sorted(d[k]))))"

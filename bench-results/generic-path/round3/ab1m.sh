#!/bin/bash
# ab1m.sh ROUNDS N RUNS WARMFROM tag... : PerfJ two bbflow-refs-backoff, whole processes alternated; per-process warm median
R=$1; N=$2; RUNS=$3; WF=$4; shift 4
for r in $(seq $R); do for t in "$@"; do
  java -cp "/tmp/pk31/pk-$t/java/classes:/tmp/pk31/pk-$t/java/lib/*" PerfJ two ${IMPL:-bbflow-refs-backoff} $N $RUNS | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')]
print('$t %.3f %.3f'%(statistics.median(t[$WF:]),t[0]))"
done; done | python3 -c "
import sys,statistics,collections
w=collections.defaultdict(list); f=collections.defaultdict(list)
for l in sys.stdin:
    k,a,b=l.split(); w[k].append(float(a)); f[k].append(float(b))
for k in w: print('%-10s warm med %7.3f [%s]  first med %7.2f'%(k,statistics.median(w[k]),' '.join('%.2f'%x for x in w[k]),statistics.median(f[k])))"

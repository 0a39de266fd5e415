#!/bin/bash
# fab2.sh ROUNDS W ITEMS RUNS "jvmopts"... : farm (default strategy) with the patch overlay, per option set
R=$1; W=$2; I=$3; RUNS=$4; shift 4
for r in $(seq $R); do for o in "$@"; do
  java $o -cp "/tmp/pk31/probe/patch:/tmp/pk31/probe:/tmp/pk31/pk-final2/java/lib/*" FarmAB $W $I $RUNS default | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')][2:]
print('%s\t%s\t%s'%('$o',statistics.median(t),' '.join('%.1f'%x for x in t)))"
done; done | python3 -c "
import sys,statistics,collections
d=collections.defaultdict(list); med=collections.defaultdict(list)
for l in sys.stdin:
    o,m,ts=l.rstrip('\n').split('\t'); med[o].append(float(m)); d[o]+= [float(x) for x in ts.split()]
for o in d:
    t=d[o]; print('%-28s runs %3d  median %6.1f  mean %6.1f  p90 %6.1f  bad(>135) %3d%%  proc-medians %s'%(o,len(t),statistics.median(t),statistics.mean(t),sorted(t)[int(len(t)*0.9)],100*sum(x>135 for x in t)//len(t),' '.join('%.0f'%x for x in med[o])))"

#!/bin/bash
# two.sh ROUNDS RUNS "opts"... : TwoProbe (no sampler), pk-fut + patch overlay; runs 3.. of each process;
# median, mean and share of slow runs (> 50 ms) per option set; stderr (e.g. NAPS n) appended to naps-<opts>.txt
R=$1; RUNS=$2; shift 2
for r in $(seq $R); do for o in "$@"; do
  f=/tmp/pk31/probe/naps-$(echo "$o" | tr -c 'a-zA-Z0-9' _).txt
  java $o -cp "/tmp/pk31/probe/patch:/tmp/pk31/probe:/tmp/pk31/pk-fut/java/lib/*" TwoProbe 10000000 $RUNS 0 2>>$f | awk -v o="$o" 'NR>2 {print o"\t"$3}'
done; done | python3 -c "
import sys,collections,statistics
d=collections.defaultdict(list)
for l in sys.stdin:
    o,t=l.rstrip('\n').split('\t'); d[o].append(float(t))
for o,t in d.items():
    print('%-32s runs %3d  median %6.1f  mean %6.1f  p90 %6.1f  slow(>50) %3d%%'%(o,len(t),statistics.median(t),statistics.mean(t),sorted(t)[int(len(t)*0.9)],100*sum(x>50 for x in t)//len(t)))"

#!/bin/bash
# ffirst.sh ROUNDS N "opts"... : first-run ms of FirstFlow (patch overlay first on the classpath)
R=$1; N=$2; shift 2
for r in $(seq $R); do for o in "$@"; do
  java $o -cp "/tmp/pk31/probe/patch:/tmp/pk31/probe/ff.jar:/tmp/pk31/pk-final2/java/lib/perf-kit-lib.jar" FirstFlow $N 1 | awk -v o="$o" -v r=$r '{print r, o, $3}'
done; done | python3 -c "
import sys,statistics,collections
d=collections.defaultdict(list)
for l in sys.stdin:
    p=l.split(); d[' '.join(p[1:-1])].append(float(p[-1]))
for k,v in d.items(): print('%-30s med %7.2f  %s'%(k,statistics.median(v),' '.join('%.0f'%x for x in v)))"

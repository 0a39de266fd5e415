#!/bin/bash
JNA=~/.m2/repository/net/java/dev/jna/jna/5.17.0/jna-5.17.0.jar
for r in $(seq $1); do for m in "free none" "free preload" "pin preload"; do
  java -cp /tmp/fr/pin:/tmp/fr/main/core.jar:/tmp/fr/base/base.jar:$JNA Pin ${N:-10000000} ${RUNS:-20} $m | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')]
w=sorted(t[5:]) or [0]; print('$r %-13s load $(cut -d' ' -f1 /proc/loadavg) first %.1f warm-median %.1f p25 %.1f p75 %.1f max %.1f'%('$m',t[0],statistics.median(w),w[len(w)//4],w[3*len(w)//4],w[-1]))"
done; done

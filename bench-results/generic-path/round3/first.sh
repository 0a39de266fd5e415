#!/bin/bash
# first.sh ROUNDS N "jvmopts" ... : first run and warm median of PerfJ refs, alternating option sets
R=$1; N=$2; shift 2
for r in $(seq $R); do for o in "$@"; do
  java $o -cp "${PATCH:+$PATCH:}/tmp/pk31/pk-final2/java/classes:/tmp/pk31/pk-final2/java/lib/*" PerfJ two ${IMPL:-bbflow-refs-backoff} $N 6 | python3 -c "
import sys,statistics
t=[float(l.split()[-1]) for l in sys.stdin if l.startswith('RUN')]
print('$r %-40s first %7.2f  warm %7.2f'%('$o',t[0],statistics.median(t[3:])))"
done; done

#!/bin/bash
L=/tmp/pk38/java/lib/perf-kit-lib.jar
cd /tmp/fprobe
for W in "360 250000" "3600 25000"; do
  uptime
  for round in 1 2 3 4 5; do
    for how in seq rr od1024 od256 pstream; do
      echo -n "W=${W% *} "; java -cp $L:. FarmDispatch $how $W 12
    done
  done
done
uptime

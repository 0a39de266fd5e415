#!/bin/bash
# one-cpu.sh ROUNDS N RUNS CAP spec...   (spec: TAG[@jvm-opt,jvm-opt], TAG a core jar /tmp/fr/TAG/core.jar built by
#   ../round4/build.sh TAG SRC, or raw = Probe2, the raw JCTools loop timing each thread's CPU)
# The whole JVM on one vCPU (taskset -c 0) and a channel of CAP slots (4M: no run ever waits for room), so that the
# node threads' busy time (BBFlow's RunStats, BProbe -Dstats) is the item path's CPU cost alone; medians of the
# second half of the runs. JAVA picks the JDK; PROBE2 / BPROBE the directories of the compiled probes.
R=$1; N=$2; RUNS=$3; CAP=$4; shift 4
for r in $(seq 1 $R); do for spec in "$@"; do
  tag=${spec%%@*}; opts=""; [[ $spec == *@* ]] && opts=${spec#*@}
  if [ $tag = raw ]; then
    taskset -c 0 ${JAVA:-java} -Dcap=$CAP ${opts//,/ } -cp "${PROBE2:-/tmp/s13/p2}:/tmp/pk35/java/lib/*" Probe2 $N $RUNS | python3 $(dirname $0)/p2med.py "$spec/$CAP"
  else
    taskset -c 0 ${JAVA:-java} -Dlam=true -Dstats=true -Dstatsall=true ${opts//,/ } -cp "/tmp/fr/$tag/core.jar:${BPROBE:-/tmp/s13/bprobe}:/tmp/pk35/java/lib/*" BProbe ${STRAT:-backoff} $CAP $N $RUNS | python3 $(dirname $0)/statmed.py "$spec/$CAP"
  fi
done; done; uptime

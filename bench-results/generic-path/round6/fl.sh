#!/bin/bash
# fl.sh ROUNDS cfg... (cfg: default | sleep=NS | pstream) ; per process median of runs 3..9
J=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
CP=/tmp/s7/farm:/tmp/fr/trim1/core.jar:/tmp/fr/base/base.jar
for r in $(seq $1); do
  line="r$r load $(cut -d' ' -f1 /proc/loadavg)"
  for c in "${@:2}"; do
    case $c in
      pstream) out=$($J -cp /tmp/pk31/pk-fut/java/classes:$CP PerfJ farm pstream 360 250000 10);;
      default) out=$($J -cp $CP FarmL 360 250000 10);;
      sleep=*) out=$($J -Dsleep=${c#sleep=} -cp $CP FarmL 360 250000 10);;
    esac
    v=$(echo "$out" | awk '/^RUN/{print $NF}' | tail -7 | sort -n | awk '{a[NR]=$1} END{printf "%.1f[%.0f-%.0f]", a[4], a[1], a[7]}')
    line="$line $c $v"
  done
  echo "$line"
done
